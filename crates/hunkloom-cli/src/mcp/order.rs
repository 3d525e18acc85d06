//! Requests on the same file run in the order they arrived; requests on different files run at
//! once.
//!
//! A host with parallel tool calls sends several `tools/call` requests without waiting; a host
//! without them may still send a read and then an edit of the same file back to back and
//! expects the edit to see the read. So each call takes a ticket when it arrives (on the
//! runtime's one thread, in arrival order) naming the files it touches, and runs, on a thread of
//! its own, once every earlier call touching one of those files has finished. A call whose
//! files are not known before it runs (a multi-file patch) touches every file: it waits for all
//! earlier calls, and all later ones wait for it.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Condvar, Mutex, MutexGuard};

/// The files a call touches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Files {
    /// These (resolved) paths.
    Some(Vec<PathBuf>),
    /// Any file of the root.
    All,
}

impl Files {
    fn meets(&self, other: &Files) -> bool {
        match (self, other) {
            (Files::All, _) | (_, Files::All) => true,
            (Files::Some(a), Files::Some(b)) => a.iter().any(|p| b.contains(p)),
        }
    }
}

/// The calls that arrived and have not finished, by ticket.
#[derive(Debug, Default)]
pub(crate) struct Order {
    open: Mutex<(u64, BTreeMap<u64, Files>)>,
    finished: Condvar,
}

/// A call's place in the order; leaving it (drop) lets the calls behind it go.
#[derive(Debug)]
pub(crate) struct Ticket<'o> {
    order: &'o Order,
    number: u64,
}

impl Order {
    /// Takes the next ticket for a call touching `files`. Call it in arrival order.
    pub(crate) fn enter(&self, files: Files) -> u64 {
        let mut open = self.lock();
        let number = open.0;
        open.0 += 1;
        open.1.insert(number, files);
        number
    }

    /// Waits until no earlier call that touches one of this call's files is still open.
    pub(crate) fn wait(&self, number: u64) -> Ticket<'_> {
        let mut open = self.lock();
        loop {
            let files = &open.1[&number];
            if !open
                .1
                .range(..number)
                .any(|(_, earlier)| earlier.meets(files))
            {
                return Ticket {
                    order: self,
                    number,
                };
            }
            open = self
                .finished
                .wait(open)
                .unwrap_or_else(std::sync::PoisonError::into_inner);
        }
    }

    /// Nothing panics while holding it, so a poisoned lock still holds a sound table.
    fn lock(&self) -> MutexGuard<'_, (u64, BTreeMap<u64, Files>)> {
        self.open
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl Drop for Ticket<'_> {
    fn drop(&mut self) {
        self.order.lock().1.remove(&self.number);
        self.order.finished.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_call_waits_for_earlier_calls_on_its_files_only() {
        let order = Order::default();
        let a = || Files::Some(vec![PathBuf::from("/r/a")]);
        let first = order.enter(a());
        let other = order.enter(Files::Some(vec![PathBuf::from("/r/b")]));
        let second = order.enter(a());
        let patch = order.enter(Files::All);
        let held = order.wait(first);
        // A call on another file goes at once.
        drop(order.wait(other));
        std::thread::scope(|s| {
            let waiter = s.spawn(|| {
                let ticket = order.wait(second);
                drop(ticket);
                order.wait(patch)
            });
            std::thread::sleep(Duration::from_millis(30));
            assert!(
                !waiter.is_finished(),
                "the second call on a.txt went before the first"
            );
            drop(held);
            drop(waiter.join().expect("waiter"));
        });
        assert!(order.lock().1.is_empty());
    }
}
