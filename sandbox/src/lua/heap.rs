//! The memory of one Lua VM: a small-object arena owned by the VM.
//!
//! Lua allocates many small blocks (strings, tables, closures, their parts) and frees them
//! one by one. The process's `malloc` would be a large part of the cost of starting a VM and of
//! building an observation's tables (BENCHMARKS.md); this arena serves blocks of up to [`SMALL_MAX`] bytes from
//! 32 KiB chunks in 16-byte size classes, each with its own free list, in a few instructions.
//! Larger blocks come from the global allocator and are kept on a list.
//!
//! Every block belongs to the heap, so dropping the heap frees the whole VM at once: a VM whose
//! objects hold nothing outside its own memory (the sandbox keeps no Rust values inside Lua
//! objects) needs no `lua_close`, which would walk and free every object one by one.
//!
//! The heap changes nothing that a bot can observe: Lua tells the allocator each block's size
//! (`osize`), and the memory meter counts those sizes, not what the arena reserves.
//!
//! Freed small blocks stay in their class, so what the heap holds can exceed what is live (a
//! bot can fill one class, free it and fill the next). The heap therefore has a ceiling of its
//! own on what it takes from the system ([`Heap::new`]'s `cap`: chunks plus large blocks). When
//! a request would pass it, the heap first gives back every chunk none of whose blocks is live
//! ([`Heap::reclaim`]: each chunk counts its live blocks), so memory freed in one class serves
//! the others; only what is still short after that is refused, which Lua reports as a memory
//! error like the meter's refusals. A reclaim walks the free lists, so it runs only once half of
//! what the heap holds has been freed since the last one: its cost stays in proportion to the
//! allocations (charged) that it follows.

use std::alloc::{self, Layout};
use std::collections::BTreeMap;
use std::ptr::{self, NonNull};

/// Blocks of up to this many bytes come from the arena's size classes.
pub(crate) const SMALL_MAX: usize = 512;
/// Size-class granularity (and the alignment of every block).
const GRAIN: usize = 16;
const CLASSES: usize = SMALL_MAX / GRAIN;
/// Size (and alignment) of one arena chunk. Its first [`GRAIN`] bytes count its live blocks.
const CHUNK: usize = 32 << 10;
/// The header in front of every large block: the links of the large-block list, the block's
/// size and its creation number (a multiple of GRAIN, so the caller's part stays 16-aligned).
const HEADER: usize = 32;

#[repr(C)]
struct Big {
    prev: *mut Big,
    next: *mut Big,
    /// The caller's size (so the heap can free the block when it is dropped).
    size: usize,
    /// How many large blocks the heap made before this one ([`Heap::identity`]).
    number: u64,
}

/// The memory of one VM.
pub(crate) struct Heap {
    /// Free blocks of each class, linked through their first word.
    free: [*mut u8; CLASSES],
    /// The unused rest of the newest chunk.
    bump: *mut u8,
    end: *mut u8,
    chunks: Vec<NonNull<u8>>,
    /// Each chunk's place in `chunks`, by its address.
    by_address: BTreeMap<usize, usize>,
    /// Large blocks, most recent first.
    big: *mut Big,
    /// Large blocks made so far.
    bigs_made: u64,
    /// Bytes taken from the system (chunks, and large blocks with their headers).
    reserved: usize,
    /// The most `reserved` may reach.
    cap: usize,
    /// Bytes of small blocks freed since the last [`Heap::reclaim`].
    freed: usize,
}

// SAFETY: the heap's pointers are owned by it alone; it is used by one thread at a time (the
// thread that runs its VM).
unsafe impl Send for Heap {}

fn class(size: usize) -> usize {
    size.div_ceil(GRAIN) - 1
}

fn chunk_layout() -> Layout {
    Layout::from_size_align(CHUNK, CHUNK).expect("valid chunk layout")
}

/// The live-block count of the chunk holding `block` (a small block, or a chunk's start).
fn live_count(block: *mut u8) -> *mut u32 {
    block.map_addr(|a| a & !(CHUNK - 1)).cast::<u32>()
}

fn big_layout(size: usize) -> Option<Layout> {
    Layout::from_size_align(size.checked_add(HEADER)?, GRAIN).ok()
}

impl Heap {
    /// An empty heap that takes at most `cap` bytes from the system.
    pub(crate) fn new(cap: usize) -> Heap {
        Heap {
            free: [ptr::null_mut(); CLASSES],
            bump: ptr::null_mut(),
            end: ptr::null_mut(),
            chunks: Vec::new(),
            by_address: BTreeMap::new(),
            big: ptr::null_mut(),
            bigs_made: 0,
            reserved: 0,
            cap,
            freed: 0,
        }
    }

    /// Books `bytes` more from the system, giving back the chunks with no live block first if
    /// the cap is in the way and enough has been freed since the last time.
    fn reserve_or_reclaim(&mut self, bytes: usize) -> bool {
        if self.reserve(bytes) {
            return true;
        }
        if self.freed < self.reserved / 2 {
            return false;
        }
        self.reclaim();
        self.reserve(bytes)
    }

    /// Gives back to the system every chunk none of whose blocks is live: their blocks leave
    /// the free lists, and the newest chunk, if empty, is bumped from its start again.
    fn reclaim(&mut self) {
        self.freed = 0;
        for c in 0..CLASSES {
            let mut link: *mut *mut u8 = &mut self.free[c];
            // SAFETY: the free lists link free blocks of live chunks through their first word.
            unsafe {
                while !(*link).is_null() {
                    let block = *link;
                    if *live_count(block) == 0 {
                        *link = *(block as *mut *mut u8);
                    } else {
                        link = block as *mut *mut u8;
                    }
                }
            }
        }
        let newest = self.chunks.last().map(|c| c.as_ptr());
        let before = self.chunks.len();
        self.chunks.retain(|chunk| {
            let p = chunk.as_ptr();
            // SAFETY: a chunk of this heap; its first word is its live count.
            if unsafe { *live_count(p) } > 0 || Some(p) == newest {
                return true;
            }
            // SAFETY: allocated in `alloc_small` with this layout; none of its blocks is live
            // or listed any more.
            unsafe { alloc::dealloc(p, chunk_layout()) };
            false
        });
        self.reserved -= (before - self.chunks.len()) * CHUNK;
        if let Some(p) = newest {
            // SAFETY: the newest chunk; with no live block, none of it is in use or listed.
            if unsafe { *live_count(p) } == 0 {
                self.bump = unsafe { p.add(GRAIN) };
            }
        }
    }

    /// Books `bytes` more from the system, if the cap allows.
    fn reserve(&mut self, bytes: usize) -> bool {
        match self.reserved.checked_add(bytes) {
            Some(r) if r <= self.cap => {
                self.reserved = r;
                true
            }
            _ => false,
        }
    }

    /// A block of `size` bytes (`1..=SMALL_MAX`), or null if the system is out of memory.
    fn alloc_small(&mut self, size: usize) -> *mut u8 {
        let c = class(size);
        let head = self.free[c];
        if !head.is_null() {
            // SAFETY: a free block's first word links to the next free block of its class;
            // its chunk starts with the chunk's live count.
            unsafe {
                self.free[c] = *(head as *mut *mut u8);
                *live_count(head) += 1;
            }
            return head;
        }
        let want = (c + 1) * GRAIN;
        if (self.end as usize) - (self.bump as usize) < want {
            if !self.reserve_or_reclaim(CHUNK) {
                return ptr::null_mut();
            }
            if (self.end as usize) - (self.bump as usize) >= want {
                // The reclaim emptied the newest chunk: bump from its start instead.
                self.reserved -= CHUNK;
                return self.bump_block(want);
            }
            // SAFETY: the layout has a non-zero size.
            let Some(chunk) = NonNull::new(unsafe { alloc::alloc(chunk_layout()) }) else {
                self.reserved -= CHUNK;
                return ptr::null_mut();
            };
            self.by_address.insert(chunk.as_ptr() as usize, self.chunks.len());
            self.chunks.push(chunk);
            // SAFETY: the chunk's first GRAIN bytes hold its live count; one past its end.
            unsafe {
                *live_count(chunk.as_ptr()) = 0;
                self.bump = chunk.as_ptr().add(GRAIN);
                self.end = chunk.as_ptr().add(CHUNK);
            }
        }
        self.bump_block(want)
    }

    /// The next `want` bytes of the newest chunk (the caller checked that they are there).
    fn bump_block(&mut self, want: usize) -> *mut u8 {
        let block = self.bump;
        // SAFETY: `want` bytes are left in the chunk; it starts with its live count.
        unsafe {
            self.bump = block.add(want);
            *live_count(block) += 1;
        }
        block
    }

    /// Returns a block of `size` bytes (`1..=SMALL_MAX`) to its class.
    ///
    /// # Safety
    /// `block` came from `alloc_small` with a size of the same class and is not used again.
    unsafe fn free_small(&mut self, block: *mut u8, size: usize) {
        let c = class(size);
        // SAFETY: the block is at least 16 bytes, 16-aligned, and ours until reused; its chunk
        // starts with the chunk's live count.
        unsafe {
            *(block as *mut *mut u8) = self.free[c];
            *live_count(block) -= 1;
        }
        self.free[c] = block;
        self.freed += (c + 1) * GRAIN;
    }

    fn alloc_big(&mut self, size: usize) -> *mut u8 {
        let Some(layout) = big_layout(size) else { return ptr::null_mut() };
        if !self.reserve_or_reclaim(layout.size()) {
            return ptr::null_mut();
        }
        // SAFETY: the layout has a non-zero size.
        let raw = unsafe { alloc::alloc(layout) } as *mut Big;
        if raw.is_null() {
            self.reserved -= layout.size();
            return ptr::null_mut();
        }
        // SAFETY: `raw` is a fresh block with room for the header.
        unsafe {
            (*raw).size = size;
            (*raw).number = self.bigs_made;
            self.link(raw);
        }
        self.bigs_made += 1;
        // SAFETY: the caller's part starts after the header.
        unsafe { (raw as *mut u8).add(HEADER) }
    }

    /// A number that names the live block at `block` (of `size` bytes) among the heap's live
    /// blocks, the same in every run that makes the same allocations and frees: a small
    /// block's chunk (in the order the chunks were made) and its offset there, or a large
    /// block's creation number. No host address is part of it. `None` if a small `block` is
    /// in no chunk of this heap.
    ///
    /// # Safety
    /// A `block` of more than [`SMALL_MAX`] bytes is a live block of this heap of that size.
    pub(crate) unsafe fn identity(&self, block: *const u8, size: usize) -> Option<u64> {
        let at = block as usize;
        if size <= SMALL_MAX {
            let (&base, &chunk) = self.by_address.range(..=at).next_back()?;
            return (at - base < CHUNK).then(|| (1 << 60) | ((chunk as u64) << 16) | (at - base) as u64);
        }
        let raw = at.wrapping_sub(HEADER) as *const Big;
        debug_assert!(self.is_listed(raw), "identity of a block that is not this heap's");
        // SAFETY: see the function's contract: the header sits right before the block.
        let header = unsafe { &*raw };
        (header.size == size).then_some((2 << 60) | header.number)
    }

    /// Whether `raw` is on the large-block list.
    fn is_listed(&self, raw: *const Big) -> bool {
        let mut at = self.big as *const Big;
        while !at.is_null() && at != raw {
            // SAFETY: a listed block's `next` is a listed block or null.
            at = unsafe { (*at).next };
        }
        !at.is_null()
    }

    /// # Safety
    /// `raw` is a live large block not on the list.
    unsafe fn link(&mut self, raw: *mut Big) {
        // SAFETY: see the function's contract; `self.big` is null or a live large block.
        unsafe {
            (*raw).prev = ptr::null_mut();
            (*raw).next = self.big;
            if !self.big.is_null() {
                (*self.big).prev = raw;
            }
        }
        self.big = raw;
    }

    /// # Safety
    /// `raw` is a live large block on the list.
    unsafe fn unlink(&mut self, raw: *mut Big) {
        // SAFETY: the neighbours of a listed block are listed blocks (or null).
        unsafe {
            let (prev, next) = ((*raw).prev, (*raw).next);
            if prev.is_null() {
                self.big = next;
            } else {
                (*prev).next = next;
            }
            if !next.is_null() {
                (*next).prev = prev;
            }
        }
    }

    /// # Safety
    /// `block` came from `alloc_big(size)` (or a realloc to `size`) and is not used again.
    unsafe fn free_big(&mut self, block: *mut u8, size: usize) {
        // SAFETY: the header sits right before the caller's part.
        let raw = unsafe { block.sub(HEADER) } as *mut Big;
        let layout = big_layout(size).expect("layout of a live block");
        // SAFETY: a live listed block, allocated with this layout.
        unsafe {
            self.unlink(raw);
            alloc::dealloc(raw as *mut u8, layout);
        }
        self.reserved -= layout.size();
    }

    /// `lua_Alloc` semantics: `nsize == 0` frees `block` (returns null); a null `block`
    /// allocates `nsize` bytes; otherwise resizes from `osize` to `nsize`, keeping the
    /// contents. Null means out of memory (and `block` is untouched).
    ///
    /// # Safety
    /// `block` is null or a live block of this heap whose size is `osize`.
    pub(crate) unsafe fn realloc(&mut self, block: *mut u8, osize: usize, nsize: usize) -> *mut u8 {
        if block.is_null() {
            return match nsize {
                0 => ptr::null_mut(),
                n if n <= SMALL_MAX => self.alloc_small(n),
                n => self.alloc_big(n),
            };
        }
        if nsize == 0 {
            // SAFETY (both): see the function's contract.
            if osize <= SMALL_MAX {
                unsafe { self.free_small(block, osize) };
            } else {
                unsafe { self.free_big(block, osize) };
            }
            return ptr::null_mut();
        }
        match (osize <= SMALL_MAX, nsize <= SMALL_MAX) {
            (true, true) if class(osize) == class(nsize) => block,
            (false, false) => {
                // SAFETY: a live large block; the new layout is valid or we fail.
                unsafe {
                    let raw = block.sub(HEADER) as *mut Big;
                    let (Some(old), Some(new)) = (big_layout(osize), big_layout(nsize)) else {
                        return ptr::null_mut();
                    };
                    if new.size() > old.size() && !self.reserve_or_reclaim(new.size() - old.size()) {
                        return ptr::null_mut();
                    }
                    let (prev, next) = ((*raw).prev, (*raw).next);
                    let moved = alloc::realloc(raw as *mut u8, old, new.size()) as *mut Big;
                    if moved.is_null() {
                        self.reserved -= new.size().saturating_sub(old.size());
                        return ptr::null_mut();
                    }
                    self.reserved -= old.size().saturating_sub(new.size());
                    if moved != raw {
                        // Re-point the neighbours at the block's new place.
                        if prev.is_null() {
                            self.big = moved;
                        } else {
                            (*prev).next = moved;
                        }
                        if !next.is_null() {
                            (*next).prev = moved;
                        }
                    }
                    (*moved).size = nsize;
                    (moved as *mut u8).add(HEADER)
                }
            }
            _ => {
                // SAFETY: a fresh block; both are live for the copy; the old one is freed.
                unsafe {
                    let fresh = self.realloc(ptr::null_mut(), 0, nsize);
                    if fresh.is_null() {
                        return fresh;
                    }
                    ptr::copy_nonoverlapping(block, fresh, osize.min(nsize));
                    self.realloc(block, osize, 0);
                    fresh
                }
            }
        }
    }
}

impl Drop for Heap {
    fn drop(&mut self) {
        let mut raw = self.big;
        while !raw.is_null() {
            // SAFETY: a listed large block, allocated with the layout of its recorded size.
            unsafe {
                let next = (*raw).next;
                alloc::dealloc(raw as *mut u8, big_layout((*raw).size).expect("layout of a live block"));
                raw = next;
            }
        }
        for chunk in self.chunks.drain(..) {
            // SAFETY: allocated in `alloc_small` with this layout.
            unsafe { alloc::dealloc(chunk.as_ptr(), chunk_layout()) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two heaps that see the same allocations and frees name their blocks alike, live blocks
    /// by distinct numbers, and a pointer outside the heap by none.
    #[test]
    fn identities_follow_the_allocation_history() {
        let run = || {
            let mut heap = Heap::new(usize::MAX);
            let sizes = [24, 600, 40, 5000, 24, 100_000, 512, 513];
            let blocks: Vec<(*mut u8, usize)> =
                sizes.iter().map(|&n| (unsafe { heap.realloc(ptr::null_mut(), 0, n) }, n)).collect();
            unsafe { heap.realloc(blocks[3].0, 5000, 0) };
            let reused = unsafe { heap.realloc(ptr::null_mut(), 0, 5000) };
            let mut live = blocks.clone();
            live[3] = (reused, 5000);
            let ids: Vec<u64> = live.iter().map(|&(b, n)| unsafe { heap.identity(b, n) }.unwrap()).collect();
            let outside = 0u64;
            assert_eq!(unsafe { heap.identity(&outside as *const u64 as *const u8, 8) }, None);
            ids
        };
        let ids = run();
        assert_eq!(ids, run());
        let mut distinct = ids.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), ids.len(), "{ids:?}");
    }

    /// Random allocations, resizes and frees of every size range: contents survive resizes,
    /// live blocks never overlap, and the heap frees everything when dropped.
    #[test]
    fn blocks_keep_their_contents_and_never_overlap() {
        let mut heap = Heap::new(usize::MAX);
        let mut live: Vec<(*mut u8, usize, u8)> = Vec::new();
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = |n: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % n
        };
        let fill = |p: *mut u8, n: usize, tag: u8| unsafe { ptr::write_bytes(p, tag, n) };
        let check = |p: *mut u8, n: usize, tag: u8| unsafe {
            assert!(std::slice::from_raw_parts(p, n).iter().all(|&b| b == tag), "block contents changed");
        };
        for step in 0..20_000u32 {
            let tag = (step % 251) as u8;
            let size = match next(10) {
                0..=6 => 1 + next(SMALL_MAX as u64) as usize,
                7 | 8 => SMALL_MAX - 8 + next(16) as usize,
                _ => 1 + next(40_000) as usize,
            };
            match next(3) {
                0 if !live.is_empty() => {
                    let (p, n, t) = live.swap_remove(next(live.len() as u64) as usize);
                    check(p, n, t);
                    unsafe { assert!(heap.realloc(p, n, 0).is_null()) };
                }
                1 if !live.is_empty() => {
                    let i = next(live.len() as u64) as usize;
                    let (p, n, t) = live[i];
                    check(p, n, t);
                    let q = unsafe { heap.realloc(p, n, size) };
                    assert!(!q.is_null());
                    assert_eq!(q as usize % GRAIN, 0);
                    check(q, n.min(size), t);
                    fill(q, size, tag);
                    live[i] = (q, size, tag);
                }
                _ => {
                    let p = unsafe { heap.realloc(ptr::null_mut(), 0, size) };
                    assert!(!p.is_null());
                    assert_eq!(p as usize % GRAIN, 0);
                    fill(p, size, tag);
                    live.push((p, size, tag));
                }
            }
        }
        for &(p, n, t) in &live {
            check(p, n, t);
        }
        let mut spans: Vec<(usize, usize)> =
            live.iter().map(|&(p, n, _)| (p as usize, p as usize + n)).collect();
        spans.sort_unstable();
        assert!(spans.windows(2).all(|w| w[0].1 <= w[1].0), "live blocks overlap");
        drop(heap); // frees the large blocks that are still live (checked by Miri/ASan runs)
    }

    /// Memory freed in one size class serves another once the heap is at its cap: a class is
    /// filled, freed, and the next one filled, twenty times over, under a cap of 4 chunks' worth
    /// more than one class's fill; a chunk that keeps one live block is kept.
    #[test]
    fn freed_chunks_serve_other_classes_at_the_cap() {
        let fill = 64 * CHUNK;
        let mut heap = Heap::new(fill + 4 * CHUNK);
        let keep = unsafe { heap.realloc(ptr::null_mut(), 0, 24) };
        assert!(!keep.is_null());
        for round in 0..20 {
            let size = 16 * (1 + round % (CLASSES - 1)) + 8;
            let blocks: Vec<*mut u8> = (0..fill / (size.next_multiple_of(GRAIN) + GRAIN))
                .map(|_| unsafe { heap.realloc(ptr::null_mut(), 0, size) })
                .collect();
            assert!(blocks.iter().all(|b| !b.is_null()), "round {round}: refused under the cap");
            for b in blocks {
                unsafe { heap.realloc(b, size, 0) };
            }
        }
        assert!(heap.reserved <= heap.cap);
        unsafe { ptr::write_bytes(keep, 7, 24) };
        // With no reclaim possible (nothing freed since), the cap refuses.
        let mut hog = Vec::new();
        loop {
            let p = unsafe { heap.realloc(ptr::null_mut(), 0, 512) };
            if p.is_null() {
                break;
            }
            hog.push(p);
        }
        assert!(heap.reserved <= heap.cap);
        assert!(unsafe { std::slice::from_raw_parts(keep, 24) }.iter().all(|&b| b == 7));
    }
}
