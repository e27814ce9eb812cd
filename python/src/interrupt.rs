//! Ctrl-C while a search runs with the GIL released.
//!
//! Python's own SIGINT handler only marks the signal; the `KeyboardInterrupt` is raised when the
//! interpreter next runs Python code, which it does not while a search holds the thread. So for
//! the time of a call, [`watch`] puts a handler in front of the one in place (Python's): it
//! cancels the search's interrupt token ([`inarow::limits::Limits::interrupt`]) and then calls the
//! previous handler, which marks the signal for Python as before. The search stops at its next
//! check of the limits; the binding then asks Python to handle the signal
//! (`Python::check_signals`), which raises `KeyboardInterrupt` (or runs the user's handler).
//! When the last call under watch ends, the previous handler is put back as it was: outside
//! calls, the process's handling of SIGINT is untouched. Where SIGINT is ignored or has its
//! default action, nothing is installed (a user who asked Ctrl-C to kill the process gets that).
//!
//! Calls may run at once on several Python threads: each takes one of [`SLOTS`] tokens (the
//! handler cancels them all), so that one call's Ctrl-C never leaves another's token cancelled
//! after it. A call beyond the slots runs without a token (no Ctrl-C, never a wrong stop).
//!
//! The tokens are made once, before the handler is first installed, and live as long as the
//! process: the handler only reads them (it may neither allocate nor lock), and each call
//! clears its slot's token as it takes it.

use inarow::limits::Cancel;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};

/// Calls that can be watched at once.
const SLOTS: usize = 64;

/// The slots' tokens: set once, by the first [`watch`], before any handler reads them.
static TOKENS: OnceLock<[Cancel; SLOTS]> = OnceLock::new();
/// Bit `i`: slot `i` is taken.
static TAKEN: AtomicU64 = AtomicU64::new(0);

/// A call under watch: while it lives, Ctrl-C cancels its token.
pub struct Watch {
    token: Option<(usize, Cancel)>,
}

impl Watch {
    /// The token to put in the search's limits (`None`: Ctrl-C is not watched for this call).
    pub fn token(&self) -> Option<Cancel> {
        self.token.as_ref().map(|(_, token)| token.clone())
    }

    /// Whether Ctrl-C came during the call.
    pub fn interrupted(&self) -> bool {
        self.token
            .as_ref()
            .is_some_and(|(_, token)| token.is_cancelled())
    }
}

/// Starts watching for Ctrl-C until the returned [`Watch`] is dropped.
pub fn watch() -> Watch {
    let tokens = TOKENS.get_or_init(|| std::array::from_fn(|_| Cancel::new()));
    let token = take_slot().map(|i| {
        tokens[i].reset();
        handler::enter();
        (i, tokens[i].clone())
    });
    Watch { token }
}

impl Drop for Watch {
    fn drop(&mut self) {
        if let Some((i, _)) = self.token {
            handler::leave();
            TAKEN.fetch_and(!(1 << i), Ordering::AcqRel);
        }
    }
}

fn take_slot() -> Option<usize> {
    let mut taken = TAKEN.load(Ordering::Acquire);
    loop {
        let free = (!taken).trailing_zeros() as usize;
        if free >= SLOTS {
            return None;
        }
        match TAKEN.compare_exchange_weak(
            taken,
            taken | 1 << free,
            Ordering::AcqRel,
            Ordering::Acquire,
        ) {
            Ok(_) => return Some(free),
            Err(now) => taken = now,
        }
    }
}

/// Calls under watch, and the handler that was in place before the first of them.
static WATCHING: Mutex<(usize, Option<handler::Saved>)> = Mutex::new((0, None));

#[cfg(unix)]
mod handler {
    use super::{TOKENS, WATCHING};
    use std::mem::MaybeUninit;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

    /// The handler that was in place (its address), and whether it takes three arguments.
    static PREVIOUS: AtomicUsize = AtomicUsize::new(0);
    static PREVIOUS_SIGINFO: AtomicBool = AtomicBool::new(false);

    /// The action to put back.
    pub struct Saved(libc::sigaction);

    // SAFETY: a `sigaction` is plain data (a handler address, a mask and flags).
    unsafe impl Send for Saved {}

    fn current() -> libc::sigaction {
        let mut old = MaybeUninit::<libc::sigaction>::zeroed();
        // SAFETY: a null new action only reads the current one into `old`.
        unsafe {
            libc::sigaction(libc::SIGINT, std::ptr::null(), old.as_mut_ptr());
            old.assume_init()
        }
    }

    extern "C" fn on_interrupt(
        signal: libc::c_int,
        info: *mut libc::siginfo_t,
        context: *mut libc::c_void,
    ) {
        // Set before the first handler was installed: `get` only loads an atomic.
        if let Some(tokens) = TOKENS.get() {
            for token in tokens {
                token.cancel();
            }
        }
        let previous = PREVIOUS.load(Ordering::Relaxed);
        if previous == 0 {
            return;
        }
        // SAFETY: `previous` is the address of the handler that was installed for SIGINT,
        // called with the arguments of its kind, as the kernel would have called it.
        unsafe {
            if PREVIOUS_SIGINFO.load(Ordering::Relaxed) {
                let f: extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void) =
                    std::mem::transmute(previous);
                f(signal, info, context);
            } else {
                let f: extern "C" fn(libc::c_int) = std::mem::transmute(previous);
                f(signal);
            }
        }
    }

    /// One more call under watch; the first installs the handler in front of the current one,
    /// unless SIGINT is ignored or has its default action.
    pub fn enter() {
        let mut watching = WATCHING.lock().unwrap_or_else(|e| e.into_inner());
        watching.0 += 1;
        if watching.0 > 1 {
            return;
        }
        let old = current();
        if old.sa_sigaction == libc::SIG_IGN || old.sa_sigaction == libc::SIG_DFL {
            watching.1 = None;
            return;
        }
        PREVIOUS.store(old.sa_sigaction, Ordering::Relaxed);
        PREVIOUS_SIGINFO.store(old.sa_flags & libc::SA_SIGINFO != 0, Ordering::Relaxed);
        let mut action = old;
        action.sa_sigaction = on_interrupt as *const () as libc::sighandler_t;
        action.sa_flags = old.sa_flags | libc::SA_SIGINFO;
        // SAFETY: installs a handler that only loads and stores atomics (the tokens') and
        // calls the previous handler, which was installed for this signal.
        unsafe { libc::sigaction(libc::SIGINT, &action, std::ptr::null_mut()) };
        watching.1 = Some(Saved(old));
    }

    /// One call fewer; the last puts the previous handler back, if ours is still in place (a
    /// handler set meanwhile stays).
    pub fn leave() {
        let mut watching = WATCHING.lock().unwrap_or_else(|e| e.into_inner());
        watching.0 -= 1;
        if watching.0 > 0 {
            return;
        }
        if let Some(Saved(old)) = watching.1.take()
            && current().sa_sigaction == on_interrupt as *const () as libc::sighandler_t
        {
            // SAFETY: puts back the action that was in place before.
            unsafe { libc::sigaction(libc::SIGINT, &old, std::ptr::null_mut()) };
        }
    }
}

#[cfg(not(unix))]
mod handler {
    /// Elsewhere no handler is installed: a search runs to its limits.
    pub struct Saved;
    pub fn enter() {}
    pub fn leave() {}
}
