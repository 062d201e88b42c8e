//! Whole-member gzip inflation with libdeflate.
//!
//! libdeflate decodes a complete member in one call, about twice as fast as
//! a streaming inflater, but needs the whole output space up front. Most
//! WARC records are far smaller than the output buffer, so the reader tries
//! this first and streams (flate2) only the members that do not fit.

use std::ptr::NonNull;

use libdeflate_sys::{
    libdeflate_alloc_decompressor, libdeflate_decompressor, libdeflate_free_decompressor, libdeflate_gzip_decompress_ex,
    libdeflate_result_LIBDEFLATE_SUCCESS,
};

pub struct WholeMember {
    decompressor: NonNull<libdeflate_decompressor>,
}

// The decompressor is plain memory used by one thread at a time.
unsafe impl Send for WholeMember {}

impl WholeMember {
    pub fn new() -> Self {
        // SAFETY: allocation has no preconditions; null means out of memory.
        let raw = unsafe { libdeflate_alloc_decompressor() };
        WholeMember { decompressor: NonNull::new(raw).expect("libdeflate: out of memory") }
    }

    /// Inflates the gzip member at the start of `input` into `output`.
    /// Returns (input bytes of the member, output bytes), or None when the
    /// member does not fit `output`, is cut off in `input`, or is damaged.
    pub fn inflate(&mut self, input: &[u8], output: &mut [u8]) -> Option<(usize, usize)> {
        let (mut consumed, mut produced) = (0usize, 0usize);
        // SAFETY: the pointers and lengths describe live slices; libdeflate
        // writes at most `output.len()` bytes and only through `output`.
        let rc = unsafe {
            libdeflate_gzip_decompress_ex(
                self.decompressor.as_ptr(),
                input.as_ptr().cast(),
                input.len(),
                output.as_mut_ptr().cast(),
                output.len(),
                &mut consumed,
                &mut produced,
            )
        };
        (rc == libdeflate_result_LIBDEFLATE_SUCCESS).then_some((consumed, produced))
    }
}

impl Default for WholeMember {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for WholeMember {
    fn drop(&mut self) {
        // SAFETY: allocated by libdeflate_alloc_decompressor, freed once.
        unsafe { libdeflate_free_decompressor(self.decompressor.as_ptr()) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn inflates_the_first_member_and_says_where_it_ends() {
        let member = |d: &[u8]| {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            e.write_all(d).unwrap();
            e.finish().unwrap()
        };
        let a = member(b"first member");
        let data = [a.clone(), member(b"second")].concat();
        let mut w = WholeMember::new();
        let mut out = vec![0; 64];
        assert_eq!(w.inflate(&data, &mut out), Some((a.len(), 12)));
        assert_eq!(&out[..12], b"first member");
        // Too little output space, or a cut member: not decoded here.
        assert_eq!(w.inflate(&data, &mut out[..4]), None);
        assert_eq!(w.inflate(&a[..a.len() - 3], &mut out), None);
    }
}
