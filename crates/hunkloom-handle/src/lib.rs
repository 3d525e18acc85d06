//! One lifecycle for every stateful handle the bindings hand out (a streaming applier, a
//! workspace), so Python, Node and C answer misuse and bugs the same way:
//!
//! - a call while another call on the same handle is running (another thread) is refused with
//!   `concurrent_use` instead of waiting or racing;
//! - a call after the handle [finished](Handle::finish) fails with `already_finished`;
//! - a panic inside a call (a bug in hunkloom) is caught, the call fails with `internal_error`,
//!   and the handle is *retired*: its possibly half-updated state is dropped and every later
//!   call fails with `internal_error` too. Other handles are unaffected.
//!
//! Bindings only convert: they keep a [`Handle`] in their object and turn the [`Error`]s it
//! returns into their language's exceptions or statuses. [`catch`] gives stateless calls the
//! same panic boundary.

use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard, TryLockError};

use hunkloom::{Error, ErrorKind};

/// A stateful value shared with a host language, with its lifecycle.
#[derive(Debug)]
pub struct Handle<T> {
    /// What the handle is, for messages ("applier", "workspace").
    what: &'static str,
    state: Mutex<State<T>>,
}

/// Where a handle is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Usable, and no call is running.
    Ready,
    /// A call is running (on another thread).
    Busy,
    /// [`Handle::finish`] was called.
    Finished,
    /// A bug stopped a call; the handle cannot be used again.
    Retired,
}

#[derive(Debug)]
enum State<T> {
    Ready(T),
    Finished,
    Retired,
}

impl<T> Handle<T> {
    /// A ready handle holding `value`; `what` names it in error messages.
    pub fn new(what: &'static str, value: T) -> Self {
        Handle {
            what,
            state: Mutex::new(State::Ready(value)),
        }
    }

    /// Runs `call` on the value. Fails with `concurrent_use` while another call runs,
    /// `already_finished` after [`finish`](Self::finish), `internal_error` if `call` panics
    /// (the handle is retired then) or panicked before.
    pub fn with<R>(&self, call: impl FnOnce(&mut T) -> R) -> Result<R, Error> {
        let mut state = self.lock()?;
        let value = match &mut *state {
            State::Ready(value) => value,
            State::Finished => return Err(self.already_finished()),
            State::Retired => return Err(self.retired()),
        };
        match guarded(|| {
            fault::fire(&self.state);
            call(value)
        }) {
            Ok(result) => Ok(result),
            Err(panic_text) => {
                *state = State::Retired;
                Err(self.stopped(&panic_text))
            }
        }
    }

    /// Takes the value out and runs `call` on it; later calls fail with `already_finished`.
    /// The lock is released before `call` runs, so a long finish (the GIL released in Python)
    /// leaves other threads free to learn that the handle has finished.
    pub fn finish<R>(&self, call: impl FnOnce(T) -> R) -> Result<R, Error> {
        let mut state = self.lock()?;
        let value = match std::mem::replace(&mut *state, State::Finished) {
            State::Ready(value) => value,
            State::Finished => return Err(self.already_finished()),
            State::Retired => {
                *state = State::Retired;
                return Err(self.retired());
            }
        };
        drop(state);
        guarded(|| {
            fault::fire(&self.state);
            call(value)
        })
        .map_err(|panic_text| self.stopped(&panic_text))
    }

    /// Where the handle is in its life (for `repr`s and `finished` getters; never blocks).
    pub fn phase(&self) -> Phase {
        match self.state.try_lock() {
            Ok(state) => match *state {
                State::Ready(_) => Phase::Ready,
                State::Finished => Phase::Finished,
                State::Retired => Phase::Retired,
            },
            Err(TryLockError::WouldBlock) => Phase::Busy,
            Err(TryLockError::Poisoned(_)) => Phase::Retired,
        }
    }

    /// Makes the next call on this handle panic inside, as a bug would (tests only).
    #[cfg(feature = "fault-injection")]
    pub fn inject_panic(&self) {
        fault::arm_handle(&self.state);
    }

    fn lock(&self) -> Result<MutexGuard<'_, State<T>>, Error> {
        match self.state.try_lock() {
            Ok(state) => Ok(state),
            Err(TryLockError::WouldBlock) => Err(Error::with_message(
                ErrorKind::ConcurrentUse,
                format!(
                    "this {0} is in use by another thread; use each {0} from one thread at a time",
                    self.what
                ),
            )),
            // Calls catch their panics before the guard drops, so nothing poisons the lock;
            // should it happen anyway, the state is not trusted.
            Err(TryLockError::Poisoned(poisoned)) => {
                *poisoned.into_inner() = State::Retired;
                self.state.clear_poison();
                Err(self.retired())
            }
        }
    }

    fn already_finished(&self) -> Error {
        Error::with_message(
            ErrorKind::AlreadyFinished,
            format!("this {} has already finished; create a new one", self.what),
        )
    }

    fn retired(&self) -> Error {
        Error::internal(&format!(
            "this {} stopped when an earlier call on it failed; create a new one",
            self.what
        ))
    }

    fn stopped(&self, panic_text: &str) -> Error {
        Error::internal(&format!(
            "this {} stopped and cannot be used again; create a new one ({panic_text})",
            self.what
        ))
    }
}

/// A stateful value that many threads may call at once (a workspace or an editor: its methods
/// take `&self` and take turns inside where they must), with the rest of a [`Handle`]'s
/// lifecycle: a panic inside a call is caught, the call fails with `internal_error`, and the
/// value is retired (every later call fails with `internal_error` too; calls already running
/// finish). There is no `concurrent_use` and nothing to finish.
///
/// The value is the last field, so an `Arc<Shared<T>>` coerces to an `Arc<Shared<dyn Trait>>`
/// that callers share without knowing which value it holds.
#[derive(Debug)]
pub struct Shared<T: ?Sized> {
    /// What the value is, for messages ("workspace", "editor").
    what: &'static str,
    retired: AtomicBool,
    value: T,
}

impl<T: Sync> Shared<T> {
    /// A usable value; `what` names it in error messages.
    pub fn new(what: &'static str, value: T) -> Self {
        Shared {
            what,
            retired: AtomicBool::new(false),
            value,
        }
    }
}

impl<T: ?Sized + Sync> Shared<T> {
    /// Runs `call` on the value, from any number of threads at once. Fails with
    /// `internal_error` if `call` panics (the value is retired then) or a call panicked before.
    pub fn with<R>(&self, call: impl FnOnce(&T) -> R) -> Result<R, Error> {
        if self.retired.load(Ordering::Acquire) {
            return Err(Error::internal(&format!(
                "this {} stopped when an earlier call on it failed; create a new one",
                self.what
            )));
        }
        guarded(|| {
            fault::fire(&self.retired);
            call(&self.value)
        })
        .map_err(|panic_text| {
            self.retired.store(true, Ordering::Release);
            Error::internal(&format!(
                "this {} stopped and cannot be used again; create a new one ({panic_text})",
                self.what
            ))
        })
    }

    /// [`Phase::Ready`] or [`Phase::Retired`] (never blocks).
    pub fn phase(&self) -> Phase {
        if self.retired.load(Ordering::Acquire) {
            Phase::Retired
        } else {
            Phase::Ready
        }
    }

    /// Makes the next call on this value panic inside, as a bug would (tests only).
    #[cfg(feature = "fault-injection")]
    pub fn inject_panic(&self) {
        fault::arm_handle(&self.retired);
    }
}

/// Runs a stateless call, turning a panic (a bug) into an `internal_error` whose message says
/// what the panic said. Bindings run every exported body through this or a [`Handle`].
pub fn catch<R>(call: impl FnOnce() -> R) -> Result<R, Error> {
    guarded(call).map_err(|panic_text| Error::internal(&panic_text))
}

/// Runs `call`; a panic becomes its text.
fn guarded<R>(call: impl FnOnce() -> R) -> Result<R, String> {
    catch_unwind(AssertUnwindSafe(call)).map_err(|payload| panic_text(&*payload))
}

/// What a panic said, if it said it in text.
fn panic_text(payload: &(dyn Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("a panic without a message")
        .to_owned()
}

/// Test-only panics of [`Handle::inject_panic`], compiled in with the `fault-injection` feature
/// (never in release artifacts). Without it [`fire`](fault::fire) is an empty inline function.
mod fault {
    #[cfg(feature = "fault-injection")]
    mod armed {
        use std::collections::HashSet;
        use std::sync::Mutex;
        use std::sync::atomic::{AtomicBool, Ordering};

        /// Handles (by address of their state) whose next call panics.
        static HANDLES: Mutex<Option<HashSet<usize>>> = Mutex::new(None);
        /// Whether `HANDLES` may be non-empty (keeps unarmed calls off the mutex).
        static ANY_HANDLE: AtomicBool = AtomicBool::new(false);

        pub(crate) fn arm_handle<S>(state: &S) {
            let mut set = HANDLES.lock().unwrap_or_else(|e| e.into_inner());
            set.get_or_insert_with(HashSet::new)
                .insert(state as *const S as usize);
            ANY_HANDLE.store(true, Ordering::SeqCst);
        }

        pub(crate) fn fire<S>(state: &S) {
            if !ANY_HANDLE.load(Ordering::SeqCst) {
                return;
            }
            let key = state as *const S as usize;
            let hit = {
                let mut set = HANDLES.lock().unwrap_or_else(|e| e.into_inner());
                set.as_mut().is_some_and(|set| set.remove(&key))
            };
            if hit {
                panic!("panic injected by a test (fault-injection feature)");
            }
        }
    }

    #[cfg(feature = "fault-injection")]
    pub(crate) use armed::{arm_handle, fire};

    #[cfg(not(feature = "fault-injection"))]
    #[inline(always)]
    pub(crate) fn fire<S>(_state: &S) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_finished_handle_says_so_and_keeps_saying_so() {
        let handle = Handle::new("applier", 1);
        assert_eq!(handle.with(|v| *v + 1), Ok(2));
        assert_eq!(handle.finish(|v| v * 10), Ok(10));
        assert_eq!(handle.phase(), Phase::Finished);
        for _ in 0..2 {
            let e = handle.with(|v| *v).unwrap_err();
            assert_eq!(e.code(), "already_finished");
            assert_eq!(
                e.message(),
                "this applier has already finished; create a new one"
            );
            assert_eq!(handle.finish(|v| v).unwrap_err().code(), "already_finished");
        }
    }

    #[test]
    fn a_panicking_call_retires_only_its_handle() {
        let broken = Handle::new("workspace", vec![1]);
        let healthy = Handle::new("workspace", vec![1]);
        let e = broken
            .with(|v| {
                v.push(2);
                panic!("boom");
            })
            .map(|_: ()| ())
            .unwrap_err();
        assert_eq!(e.code(), "internal_error");
        assert!(e.message().contains("this workspace stopped") && e.message().ends_with("(boom)"));
        assert_eq!(broken.phase(), Phase::Retired);
        for _ in 0..2 {
            assert_eq!(
                broken.with(|v| v.len()).unwrap_err().code(),
                "internal_error"
            );
        }
        assert_eq!(broken.finish(|v| v).unwrap_err().code(), "internal_error");
        assert_eq!(healthy.with(|v| v.len()), Ok(1));
    }

    #[test]
    fn a_panicking_finish_is_an_internal_error() {
        let handle = Handle::new("applier", 0);
        let e = handle.finish(|_| -> u8 { panic!("late") }).unwrap_err();
        assert_eq!(e.code(), "internal_error");
        assert_eq!(handle.with(|v| *v).unwrap_err().code(), "already_finished");
    }

    #[test]
    fn an_overlapping_call_is_refused() {
        let handle = Handle::new("applier", 0);
        let (entered, proceed) = (std::sync::Barrier::new(2), std::sync::Barrier::new(2));
        std::thread::scope(|s| {
            let inner = s.spawn(|| {
                handle.with(|_| {
                    entered.wait();
                    proceed.wait();
                })
            });
            entered.wait();
            assert_eq!(handle.phase(), Phase::Busy);
            let e = handle.with(|v| *v).unwrap_err();
            assert_eq!(e.code(), "concurrent_use");
            assert_eq!(handle.finish(|v| v).unwrap_err().code(), "concurrent_use");
            proceed.wait();
            assert_eq!(inner.join().ok(), Some(Ok(())));
        });
        assert_eq!(handle.with(|v| *v), Ok(0));
    }

    #[test]
    fn a_shared_value_serves_threads_at_once_and_a_panic_retires_it() {
        let shared = Shared::new("workspace", std::sync::Barrier::new(2));
        // Both calls are inside at once (each waits for the other at the barrier).
        std::thread::scope(|s| {
            let a = s.spawn(|| shared.with(|b| b.wait().is_leader()));
            let b = s.spawn(|| shared.with(|b| b.wait().is_leader()));
            let (a, b) = (a.join().ok(), b.join().ok());
            assert!(matches!((a, b), (Some(Ok(x)), Some(Ok(y))) if x != y));
        });
        assert_eq!(shared.phase(), Phase::Ready);
        let e = shared.with(|_| -> u8 { panic!("boom") }).unwrap_err();
        assert_eq!(e.code(), "internal_error");
        assert!(e.message().ends_with("(boom)"), "{}", e.message());
        assert_eq!(shared.phase(), Phase::Retired);
        assert_eq!(shared.with(|_| 1).unwrap_err().code(), "internal_error");
    }

    #[test]
    fn catch_turns_a_panic_into_an_internal_error() {
        assert_eq!(catch(|| 3), Ok(3));
        let e = catch(|| -> u8 { panic!("said {}", 1) }).unwrap_err();
        assert_eq!(e.code(), "internal_error");
        assert!(e.message().ends_with("said 1"), "{}", e.message());
    }
}

#[cfg(all(test, feature = "fault-injection"))]
mod fault_tests {
    use super::*;

    #[test]
    fn an_injected_panic_retires_only_the_armed_handle() {
        let armed = Handle::new("applier", 0);
        let other = Handle::new("applier", 0);
        armed.inject_panic();
        assert_eq!(other.with(|v| *v), Ok(0));
        assert_eq!(armed.with(|v| *v).unwrap_err().code(), "internal_error");
        assert_eq!(armed.phase(), Phase::Retired);
        assert_eq!(other.with(|v| *v), Ok(0));
    }
}
