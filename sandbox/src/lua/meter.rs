//! The fuel meter of one Lua VM, and its instruction hook.
//!
//! One [`Meter`] belongs to one Lua state. It is shared (behind an `Arc`) by the instruction
//! hook, the host functions that charge library work, and the state's allocator
//! ([`super::vm::metered_alloc`]), and read by the watchdog's ticker. All of them run on the thread that currently owns the `Instance`, one at a
//! time, so the atomics are only there to make the type `Sync`: plain loads and stores, no
//! read-modify-write.
//!
//! Fuel of a phase (the start, or one decision) =
//! instructions counted by the hook (in steps of [`LUA_HOOK_STEP`])
//! + explicit charges (pattern steps, moved elements, scanned bytes, log bytes…)
//! + bytes allocated by the VM while the bot runs / [`ALLOC_BYTES_PER_FUEL`].
//!
//! Exhaustion is sticky: once tripped, every growing allocation fails, every charged library
//! call fails, and the hook is re-armed to fire at every instruction and fail again, so nested
//! `pcall`s unwind in a few steps and nothing the bot does can resume.

use std::ffi::c_int;
use std::ptr;
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU64, AtomicU8, Ordering::Relaxed};
use std::time::{Duration, Instant};

use mlua::ffi;

use crate::LUA_HOOK_STEP;

/// The vendored Lua's count hook that keeps its count in the interpreter loop instead of
/// putting the VM in trap mode (`vendor/lua-src/lua-5.4.9/lua.h`; the same counts and hook
/// events as `LUA_MASKCOUNT`, at a fraction of the cost).
pub(crate) const LUA_MASKFUEL: c_int = 1 << 6;

extern "C-unwind" {
    /// The patched Lua's work charged past the fuel hook's count since the last call with
    /// `take` (vendor/lua-src/README.md).
    fn lua_fueldebt(l: *mut ffi::lua_State, take: c_int) -> ffi::lua_Integer;
}

/// One unit of fuel per this many bytes handed out by the Lua allocator while the bot runs.
pub(crate) const ALLOC_BYTES_PER_FUEL: u64 = 32;

/// Why the meter stopped the bot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Trip {
    /// Not stopped.
    None = 0,
    /// The phase's fuel ran out.
    Fuel = 1,
    /// The wall-clock backstop fired.
    Wall = 2,
}

pub(crate) struct Meter {
    /// The main `lua_State`, for re-arming the hook from inside the allocator. Only
    /// dereferenced (by `lua_sethook`) while Lua code runs, when the state is alive.
    main: AtomicPtr<ffi::lua_State>,
    /// The count hook to arm on `main` (the VM's `fuel_hook`), given with it.
    hook: std::sync::OnceLock<ffi::lua_Hook>,
    base: Instant,

    // The current phase.
    used: AtomicU64,
    alloc_bytes: AtomicU64,
    charging: AtomicBool,
    limit: AtomicU64,
    deadline_ns: AtomicU64,
    tripped: AtomicU8,

    /// Offset of `hookcount` in the main `lua_State`, if the layout probe succeeded.
    hookcount_at: AtomicU64,

    // Memory, over the VM's life.
    live: AtomicU64,
    peak: AtomicU64,
    mem_limit: AtomicU64,

    /// Where the bot's code was (`file:line`) when the fuel ran out, for the fault message.
    site: std::sync::Mutex<Option<String>>,
    /// Where the bot's code was when the allocator last refused it memory, in this phase.
    alloc_site: std::sync::Mutex<Option<String>>,
}

impl Meter {
    pub(crate) fn new(mem_limit: u64) -> Meter {
        Meter {
            main: AtomicPtr::new(ptr::null_mut()),
            hook: std::sync::OnceLock::new(),
            base: Instant::now(),
            used: AtomicU64::new(0),
            alloc_bytes: AtomicU64::new(0),
            charging: AtomicBool::new(false),
            limit: AtomicU64::new(u64::MAX),
            deadline_ns: AtomicU64::new(u64::MAX),
            tripped: AtomicU8::new(Trip::None as u8),
            hookcount_at: AtomicU64::new(0),
            live: AtomicU64::new(0),
            peak: AtomicU64::new(0),
            mem_limit: AtomicU64::new(mem_limit),
            site: std::sync::Mutex::new(None),
            alloc_site: std::sync::Mutex::new(None),
        }
    }

    /// Where the fuel ran out in this phase, if the hook saw it.
    pub(crate) fn site(&self) -> Option<String> {
        self.site.lock().ok().and_then(|s| s.clone())
    }

    pub(crate) fn record_site(&self, site: impl FnOnce() -> Option<String>) {
        if let Ok(mut s) = self.site.lock() {
            if s.is_none() {
                *s = site();
            }
        }
    }

    /// Where the bot last asked for memory the cap refused, in this phase.
    pub(crate) fn alloc_site(&self) -> Option<String> {
        self.alloc_site.lock().ok().and_then(|s| s.clone())
    }

    /// Notes where the bot's code is, on the main state's stack, when the meter refuses it
    /// (charged work, or an allocation, outside the hook): the fuel's site if the fuel has
    /// run out, else the refused allocation's. `moving` is the size of the block being
    /// reallocated (0 for a new block), see [`super::frames::main_line`].
    pub(crate) fn note_site(&self, moving: usize) {
        let main = self.main.load(Relaxed);
        if main.is_null() {
            return;
        }
        // SAFETY: `main` is the live main state while it is set, and this runs on its thread
        // from inside a call of Lua (a host function or the allocator).
        let site = || unsafe { super::frames::main_line(main, moving) };
        if self.trip_state() == Trip::Fuel {
            self.record_site(site);
        } else if let Ok(mut s) = self.alloc_site.lock() {
            *s = site();
        }
    }

    pub(crate) fn set_main_state(&self, state: *mut ffi::lua_State, hook: ffi::lua_Hook) {
        // A meter serves one VM, whose hook is always the same function.
        let _ = self.hook.set(hook);
        self.main.store(state, Relaxed);
    }

    /// Reads the main state's `hookcount`, when the layout probe has found it.
    fn hookcount(&self) -> Option<i32> {
        let at = self.hookcount_at.load(Relaxed);
        let main = self.main.load(Relaxed);
        if at == 0 || main.is_null() {
            return None;
        }
        // SAFETY: `at` was validated by `probe_hookcount` for this very state, whose
        // `lua_State` is alive while `main` is set, and lies inside the struct.
        Some(unsafe { std::ptr::read_volatile((main as *const u8).add(at as usize).cast::<i32>()) })
    }

    /// Makes the hook fire at the next instruction, from another thread (the ticker), without
    /// touching anything but the hook's counter: one aligned 32-bit store, which at worst is
    /// lost to the VM's own decrement (the ticker tries again 10 ms later). Used only for a
    /// call that is already past its deadline, so it cannot change a result that counts.
    pub(crate) fn poke(&self) {
        let at = self.hookcount_at.load(Relaxed);
        let main = self.main.load(Relaxed);
        if at == 0 || main.is_null() {
            return;
        }
        // SAFETY: `at` was validated by `probe_hookcount` for this state, which stays alive
        // while the call is registered with the watchdog (the registration ends before the
        // call returns, and the instance cannot be dropped during a call). The counter is an
        // aligned `int` that Lua only ever sets or decrements.
        unsafe {
            let counter = (main as *mut u8).add(at as usize).cast::<i32>();
            std::sync::atomic::AtomicI32::from_ptr(counter).store(1, Relaxed);
        }
    }

    /// Instructions run since the hook last fired (exact when the layout probe succeeded,
    /// 0 otherwise), plus the VM's work charged past the hook's count and not yet booked.
    fn residue(&self) -> u64 {
        let counted = match (self.trip_state(), self.hookcount()) {
            (Trip::None, Some(left)) => u64::from(LUA_HOOK_STEP).saturating_sub(left.max(0) as u64),
            _ => 0,
        };
        counted.saturating_add(self.debt(false))
    }

    /// The work the patched VM charged to the hook's count that did not fit in it
    /// (`lua_fueldebt`, vendor/lua-src/README.md); `take` clears it.
    fn debt(&self, take: bool) -> u64 {
        let main = self.main.load(Relaxed);
        if main.is_null() {
            return 0;
        }
        // SAFETY: `main` is the live main state while it is set (cleared by `unlimit`); the
        // call only reads (and clears) one field of its global state.
        let debt = unsafe { lua_fueldebt(main, c_int::from(take)) };
        u64::try_from(debt).unwrap_or(0)
    }

    /// Ends a phase: books the instructions run since the hook last fired, and the VM's
    /// pending charges.
    pub(crate) fn end_phase(&self) {
        let residue = self.residue();
        self.debt(true);
        self.used.store(self.used.load(Relaxed).saturating_add(residue), Relaxed);
    }

    /// Fuel used in this phase, counting the instructions since the hook last fired.
    pub(crate) fn used_exact(&self) -> u64 {
        self.total().saturating_add(self.residue())
    }

    /// Fuel left in this phase, counting the instructions since the hook last fired.
    pub(crate) fn remaining_exact(&self) -> u64 {
        self.remaining().saturating_sub(self.residue())
    }

    /// Finds `hookcount` in the main `lua_State` of the vendored Lua 5.4.9, so fuel can be
    /// counted to the instruction instead of in steps of `LUA_HOOK_STEP`. The candidate
    /// offset (`basehookcount`, `hookcount`, `hookmask` at the end of the struct on 64-bit
    /// targets) is accepted only if all three fields read back what two different
    /// `lua_sethook` calls just wrote; otherwise counting stays in whole steps.
    ///
    /// # Safety
    ///
    /// `self.main` must be the live main state, with no Lua code running.
    pub(crate) unsafe fn probe_hookcount(&self) -> bool {
        const BASE: usize = 184; // basehookcount; hookcount at +4, hookmask at +8
        let main = self.main.load(Relaxed);
        if main.is_null() || !cfg!(target_pointer_width = "64") {
            return false;
        }
        // SAFETY (all blocks below): `main` is a live Lua 5.4 state (checked by
        // `lua_version`), whose `lua_State` is larger than `BASE + 12` bytes on 64-bit
        // targets; the hook set here is removed before returning.
        let version = unsafe { ffi::lua_version(main) };
        if version != 504.0 {
            return false;
        }
        let read = |off: usize| unsafe {
            std::ptr::read_volatile((main as *const u8).add(BASE + off).cast::<i32>())
        };
        unsafe extern "C-unwind" fn nop(_: *mut ffi::lua_State, _: *mut ffi::lua_Debug) {}
        let mut ok = true;
        for count in [LUA_HOOK_STEP as i32, 7777] {
            unsafe { ffi::lua_sethook(main, Some(nop), LUA_MASKFUEL, count) };
            ok &= read(0) == count && read(4) == count && read(8) == LUA_MASKFUEL;
        }
        unsafe { ffi::lua_sethook(main, None, 0, 0) };
        ok &= read(8) == 0;
        if ok {
            self.hookcount_at.store((BASE + 4) as u64, Relaxed);
        }
        ok
    }

    /// Starts a phase: fresh counters, a fuel limit and a wall-clock deadline. Charging stays
    /// off until [`Meter::set_charging`].
    pub(crate) fn begin(&self, limit: u64, wall: Duration) {
        self.used.store(0, Relaxed);
        self.alloc_bytes.store(0, Relaxed);
        self.charging.store(false, Relaxed);
        self.limit.store(limit, Relaxed);
        let deadline = self.base.elapsed().saturating_add(wall).as_nanos();
        self.deadline_ns.store(u64::try_from(deadline).unwrap_or(u64::MAX), Relaxed);
        self.tripped.store(Trip::None as u8, Relaxed);
        self.debt(true);
        for site in [&self.site, &self.alloc_site] {
            if let Ok(mut s) = site.lock() {
                *s = None;
            }
        }
    }

    /// Ends a call: no deadline until the next `begin` (the watchdog passes the meter by).
    pub(crate) fn end_call(&self) {
        self.deadline_ns.store(u64::MAX, Relaxed);
    }

    /// Turns charging of allocations (and refusal once exhausted) on or off. Off while the
    /// host builds the observation table, so the bot pays only for its own work.
    pub(crate) fn set_charging(&self, on: bool) {
        self.charging.store(on, Relaxed);
    }

    pub(crate) fn charging(&self) -> bool {
        self.charging.load(Relaxed)
    }

    /// Lifts every limit, for tearing the VM down.
    pub(crate) fn unlimit(&self) {
        self.charging.store(false, Relaxed);
        self.mem_limit.store(u64::MAX, Relaxed);
        self.main.store(ptr::null_mut(), Relaxed);
    }

    /// Fuel used in this phase so far.
    pub(crate) fn total(&self) -> u64 {
        self.used.load(Relaxed).saturating_add(self.alloc_bytes.load(Relaxed) / ALLOC_BYTES_PER_FUEL)
    }

    pub(crate) fn limit(&self) -> u64 {
        self.limit.load(Relaxed)
    }

    /// Fuel left in this phase.
    pub(crate) fn remaining(&self) -> u64 {
        self.limit().saturating_sub(self.total())
    }

    pub(crate) fn trip_state(&self) -> Trip {
        match self.tripped.load(Relaxed) {
            1 => Trip::Fuel,
            2 => Trip::Wall,
            _ => Trip::None,
        }
    }

    pub(crate) fn memory_limit(&self) -> u64 {
        self.mem_limit.load(Relaxed)
    }

    pub(crate) fn peak(&self) -> u64 {
        self.peak.load(Relaxed)
    }

    pub(crate) fn past_deadline(&self) -> bool {
        let now = u64::try_from(self.base.elapsed().as_nanos()).unwrap_or(u64::MAX);
        now > self.deadline_ns.load(Relaxed)
    }

    /// Stops the bot: records why and makes the hook fire at the very next instruction.
    pub(crate) fn trip(&self, why: Trip) {
        if self.trip_state() == Trip::None {
            self.tripped.store(why as u8, Relaxed);
        }
        self.set_hook_count(1);
    }

    /// (Re-)arms the fuel hook on the main state to fire every `count` instructions (this also
    /// restarts the hook's count).
    fn set_hook_count(&self, count: u32) {
        let main = self.main.load(Relaxed);
        if let (false, Some(&hook)) = (main.is_null(), self.hook.get()) {
            // SAFETY: `main` is the live main state (cleared by `unlimit` before teardown);
            // `lua_sethook` is safe to call at any point, even from a signal handler.
            unsafe {
                ffi::lua_sethook(main, Some(hook), LUA_MASKFUEL, count as c_int);
            }
        }
    }

    /// Arms the fuel hook for a new phase: every `LUA_HOOK_STEP` instructions. What the VM
    /// charged before (the host's own work, such as building the observation) is dropped.
    pub(crate) fn arm(&self) {
        self.set_hook_count(LUA_HOOK_STEP);
        self.debt(true);
    }

    /// The message of the error that host functions raise once the meter tripped.
    pub(crate) fn trip_message(&self) -> &'static str {
        match self.trip_state() {
            Trip::Wall => "sandbox: wall-clock backstop reached",
            _ => "sandbox: fuel exhausted",
        }
    }

    /// Called by the hook every `LUA_HOOK_STEP` instructions (or every instruction once
    /// tripped). `Err` means: raise the trip error now.
    pub(crate) fn on_hook(&self) -> Result<(), ()> {
        if self.trip_state() != Trip::None {
            return Err(());
        }
        let booked = u64::from(LUA_HOOK_STEP).saturating_add(self.debt(true));
        self.used.store(self.used.load(Relaxed).saturating_add(booked), Relaxed);
        self.check()
    }

    /// Charges `fuel` units of library work; `Err` once the budget (or the clock) is gone.
    pub(crate) fn charge(&self, fuel: u64) -> Result<(), ()> {
        if self.trip_state() != Trip::None {
            return Err(());
        }
        self.used.store(self.used.load(Relaxed).saturating_add(fuel), Relaxed);
        let checked = self.check();
        if checked.is_err() {
            self.note_site(0);
        }
        checked
    }

    fn check(&self) -> Result<(), ()> {
        if self.total() > self.limit() {
            self.trip(Trip::Fuel);
            return Err(());
        }
        if self.past_deadline() {
            self.trip(Trip::Wall);
            return Err(());
        }
        Ok(())
    }

    /// The allocator's decision for a request to grow by `grow` bytes.
    pub(crate) fn admit(&self, grow: u64) -> bool {
        let charging = self.charging.load(Relaxed);
        if charging && self.trip_state() != Trip::None {
            return false;
        }
        let live = self.live.load(Relaxed);
        if live.saturating_add(grow) > self.mem_limit.load(Relaxed) {
            if charging {
                // A refused allocation makes Lua run a full collection and retry: charge it
                // like allocating the whole live heap, so a bot that catches memory errors
                // and keeps thrashing at its cap runs out of fuel instead of time. (No trip
                // here: the memory error is the verdict unless the bot carries on.)
                let bytes = self.alloc_bytes.load(Relaxed).saturating_add(live);
                self.alloc_bytes.store(bytes, Relaxed);
            }
            return false;
        }
        if charging {
            let bytes = self.alloc_bytes.load(Relaxed).saturating_add(grow);
            self.alloc_bytes.store(bytes, Relaxed);
            if self.total() > self.limit() {
                self.trip(Trip::Fuel);
                return false;
            }
        }
        true
    }

    pub(crate) fn note_size_change(&self, old: usize, new: usize) {
        let live = self.live.load(Relaxed);
        let live = live.saturating_sub(old as u64).saturating_add(new as u64);
        self.live.store(live, Relaxed);
        if live > self.peak.load(Relaxed) {
            self.peak.store(live, Relaxed);
        }
    }
}
