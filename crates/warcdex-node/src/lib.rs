//! The Node.js binding of warcdex. Work runs on libuv's worker threads
//! (`AsyncTask`), results cross into JavaScript in batches, and a Rust panic
//! becomes a JavaScript error instead of aborting the process.

mod convert;
mod cursor;
mod dump;
mod job;
mod output;
mod parquet;
mod payload;
mod push;
mod sample;
mod summary;

use std::panic::{catch_unwind, AssertUnwindSafe};

/// Runs `f`, turning a panic into an error (so it never unwinds into Node).
pub(crate) fn guard<T>(what: &str, f: impl FnOnce() -> napi::Result<T>) -> napi::Result<T> {
    static QUIET_HOOK: std::sync::Once = std::sync::Once::new();
    // The panic reaches JavaScript as an error; one line on stderr is enough.
    QUIET_HOOK.call_once(|| {
        std::panic::set_hook(Box::new(|info| eprintln!("warcdex: internal error: {info}")));
    });
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(payload) => {
            let msg = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            Err(napi::Error::new(
                napi::Status::GenericFailure,
                format!("internal error in {what} (please report): {msg}"),
            ))
        }
    }
}

/// A core error as a JavaScript error whose message names the file and offset.
pub(crate) fn js_error(e: warcdex_core::error::Error) -> napi::Error {
    napi::Error::new(napi::Status::GenericFailure, format!("[{}] {}", e.code(), e))
}

/// The version of the native addon.
#[napi_derive::napi]
pub fn native_version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

/// Panics on purpose, so tests can prove that panics become JS errors.
#[napi_derive::napi]
pub fn panic_for_test() -> napi::Result<()> {
    guard("panicForTest", || panic!("deliberate panic"))
}
