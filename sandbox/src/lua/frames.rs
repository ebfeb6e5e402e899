//! The Lua line a bot is at, read from its frames: for fault messages (`vm`) and for the
//! meter's refusals outside the hook (`meter`), so that neither needs the other for it.

use std::ffi::{c_int, CStr};

use mlua::ffi;

/// `file:line` of a frame `lua_getinfo` filled with "Sl" (`None` for a C function).
pub(super) fn line_of(ar: &ffi::lua_Debug) -> Option<String> {
    if ar.currentline <= 0 {
        return None;
    }
    // SAFETY: `short_src` is a NUL-terminated buffer filled by `lua_getinfo`.
    let src = unsafe { CStr::from_ptr(ar.short_src.as_ptr()) }.to_string_lossy();
    Some(format!("{src}:{}", ar.currentline))
}

/// `file:line` of the innermost Lua function of the main state `main` (a C function such as
/// `string.rep` is skipped for the Lua line that called it), for the meter's refusals outside
/// the hook: from a host function, or from the allocator.
///
/// In the allocator, Lua may be moving a stack: `luaD_reallocstack` (ldo.c) turns every
/// frame's stack pointers into offsets into the old block before it asks for the new one, and
/// back after. `moving` is the size of the block being reallocated (0 for a new block, which
/// never is a stack being moved): a frame whose function slot reads as a number below it holds
/// an offset, and the search stops there without a line (a real pointer is an address of the
/// heap, far above any block size).
///
/// # Safety
///
/// `main` is a live state of this thread, inside a call from Lua.
pub(crate) unsafe fn main_line(main: *mut ffi::lua_State, moving: usize) -> Option<String> {
    // SAFETY: see the function's contract.
    unsafe { stack_line(main, 0, moving) }
}

/// The first Lua line from `level` up (eight levels at most); see [`main_line`] for `moving`.
///
/// # Safety
///
/// As [`main_line`].
pub(super) unsafe fn stack_line(state: *mut ffi::lua_State, level: c_int, moving: usize) -> Option<String> {
    for level in level..level + 8 {
        // SAFETY: `lua_getstack` only walks the list of frames; the frame's first word (its
        // function slot, `CallInfo.func` in lstate.h) is read before `lua_getinfo` follows it.
        unsafe {
            let mut ar: ffi::lua_Debug = std::mem::zeroed();
            if ffi::lua_getstack(state, level, &mut ar) == 0 {
                return None;
            }
            if moving > 0 && frame_func_slot(&ar) < moving {
                return None;
            }
            if ffi::lua_getinfo(state, c"Sl".as_ptr(), &mut ar) != 0 {
                if let Some(site) = line_of(&ar) {
                    return Some(site);
                }
            }
        }
    }
    None
}

/// The first word of the frame `lua_getstack` put in `ar` (its private `i_ci`, the last field
/// of `lua_Debug`): `CallInfo.func`, a pointer into the stack or, while the stack moves, an
/// offset.
///
/// # Safety
///
/// `ar` was filled by a successful `lua_getstack`.
unsafe fn frame_func_slot(ar: &ffi::lua_Debug) -> usize {
    let at = std::mem::size_of::<ffi::lua_Debug>() - std::mem::size_of::<*const usize>();
    // SAFETY: `lua_Debug` is `repr(C)` and ends with `i_ci`, a pointer to the frame's live
    // `CallInfo`, whose first field is pointer-sized.
    unsafe {
        let ci = std::ptr::read_unaligned(
            (ar as *const ffi::lua_Debug).cast::<u8>().add(at).cast::<*const usize>(),
        );
        if ci.is_null() {
            0
        } else {
            ci.read()
        }
    }
}
