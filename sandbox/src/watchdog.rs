//! The Lua side of the wall-clock backstop.
//!
//! The fuel hook reads the clock every `LUA_HOOK_STEP` instructions, but a few single Lua
//! instructions scan megabytes (comparing long strings, coercing a long numeric string), so
//! 1000 of them can take far longer than the backstop allows.
//! The epoch ticker thread therefore also walks the Lua calls in progress every tick and, once
//! one is past its deadline, sets its hook count to 1, so the hook runs (and stops the bot) at
//! the very next instruction.
//!
//! Only calls that are already past their deadline are touched, so nothing here can change
//! the fuel or the outcome of a decision that ends in time.

use std::sync::{Arc, Mutex};

/// A call the ticker can check: the Lua meter.
pub(crate) trait Overdue: Send + Sync {
    /// Whether a call is in progress and past its deadline.
    fn past_deadline(&self) -> bool;
    /// Makes the call check its clock at its next instruction.
    fn poke(&self);
}

/// Every live Lua VM of a sandbox (its meter), shared with the ticker. A VM registers when it
/// is created and leaves when it is dropped, not at every call: a meter that is not in a call
/// has no deadline, so the ticker passes it by.
#[derive(Default)]
pub(crate) struct Watchlist {
    active: Mutex<Vec<Arc<dyn Overdue>>>,
}

impl Watchlist {
    /// Registers a VM's meter until the returned guard is dropped.
    pub(crate) fn register(self: &Arc<Self>, meter: Arc<dyn Overdue>) -> Registered {
        self.active.lock().unwrap_or_else(|p| p.into_inner()).push(meter.clone());
        Registered { list: self.clone(), meter }
    }

    /// Called by the ticker: makes every overdue call check its clock at its next instruction.
    pub(crate) fn poke_overdue(&self) {
        let active = self.active.lock().unwrap_or_else(|p| p.into_inner());
        for meter in active.iter().filter(|m| m.past_deadline()) {
            meter.poke();
        }
    }
}

/// Unregisters a VM when dropped (before the VM itself is: see `LuaInstance`'s field order).
pub(crate) struct Registered {
    list: Arc<Watchlist>,
    meter: Arc<dyn Overdue>,
}

impl Drop for Registered {
    fn drop(&mut self) {
        let mut active = self.list.active.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(i) = active.iter().position(|m| Arc::ptr_eq(m, &self.meter)) {
            active.swap_remove(i);
        }
    }
}
