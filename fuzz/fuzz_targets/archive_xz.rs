#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| warcdex_fuzz::archive_xz(data));
