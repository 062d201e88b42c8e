//! Binary payloads: real magic numbers and a little structure up front,
//! random bytes (8 per PRNG call) for the bulk, so they are incompressible
//! like real JPEG/PNG/video data.

use crate::content::Kind;
use crate::rng::Rng;
use crate::vocab::Vocab;

/// Binary payload of about `size` bytes: magic numbers and a little
/// structure up front, random bytes for the bulk.
pub fn binary_body(kind: Kind, rng: &mut Rng, size: usize, out: &mut Vec<u8>) {
    let size = size.max(64);
    let start = out.len();
    let (head, tail): (Vec<u8>, &[u8]) = match kind {
        Kind::Jpeg => {
            let mut h = vec![0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10];
            h.extend_from_slice(b"JFIF\0\x01\x01\x00\x00\x48\x00\x48\x00\x00");
            h.extend_from_slice(&[0xFF, 0xDB, 0x00, 0x43, 0x00]);
            (h, &[0xFF, 0xD9])
        }
        Kind::Png => {
            let mut h = b"\x89PNG\r\n\x1a\n".to_vec();
            let mut ihdr = Vec::new();
            ihdr.extend_from_slice(&(16 + rng.below(2000) as u32).to_be_bytes());
            ihdr.extend_from_slice(&(16 + rng.below(2000) as u32).to_be_bytes());
            ihdr.extend_from_slice(&[8, 6, 0, 0, 0]);
            png_chunk(&mut h, b"IHDR", &ihdr);
            // IDAT length covers the random bytes that follow.
            let idat_len = size.saturating_sub(h.len() + 12 + 12) as u32;
            h.extend_from_slice(&idat_len.to_be_bytes());
            h.extend_from_slice(b"IDAT");
            (
                h,
                &[0, 0, 0, 0, b'I', b'E', b'N', b'D', 0xAE, 0x42, 0x60, 0x82],
            )
        }
        Kind::Gif => {
            let mut h = b"GIF89a".to_vec();
            h.extend_from_slice(&(1 + rng.below(800) as u16).to_le_bytes());
            h.extend_from_slice(&(1 + rng.below(600) as u16).to_le_bytes());
            h.extend_from_slice(&[0xF7, 0x00, 0x00]);
            (h, &[0x3B])
        }
        Kind::Webp => {
            let mut h = b"RIFF".to_vec();
            h.extend_from_slice(&(size as u32 - 8).to_le_bytes());
            h.extend_from_slice(b"WEBPVP8 ");
            (h, b"")
        }
        Kind::Ico => (vec![0, 0, 1, 0, 1, 0, 16, 16, 0, 0, 1, 0, 32, 0], b""),
        Kind::Woff2 => (b"wOF2\x00\x01\x00\x00".to_vec(), b""),
        Kind::Mp4 => {
            let mut h = vec![0, 0, 0, 0x20];
            h.extend_from_slice(b"ftypisom\x00\x00\x02\x00isomiso2avc1mp41");
            h.extend_from_slice(&(size as u32 - 32).to_be_bytes());
            h.extend_from_slice(b"mdat");
            (h, b"")
        }
        Kind::Zip => (
            b"PK\x03\x04\x14\x00\x00\x00\x08\x00".to_vec(),
            b"PK\x05\x06\x00\x00\x00\x00\x01\x00\x01\x00",
        ),
        _ => (Vec::new(), b""),
    };
    out.extend_from_slice(&head);
    let bulk = size.saturating_sub(head.len() + tail.len());
    let at = out.len();
    out.resize(at + bulk, 0);
    rng.fill(&mut out[at..]);
    out.extend_from_slice(tail);
    debug_assert!(out.len() - start >= size.min(head.len() + tail.len()));
}

/// A PDF: text objects around streams of random (i.e. "Flate-compressed")
/// bytes, with an xref table and trailer so it looks like the real thing.
pub fn pdf_body(vocab: &Vocab, rng: &mut Rng, size: usize, out: &mut Vec<u8>) {
    let start = out.len();
    out.extend_from_slice(b"%PDF-1.5\n%\xE2\xE3\xCF\xD3\n");
    let title = vocab.title(rng, 4);
    out.extend_from_slice(
        format!(
            "1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n\
             3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>\nendobj\n\
             5 0 obj\n<< /Title ({title}) /Producer (warcdex-synth) >>\nendobj\n"
        )
        .as_bytes(),
    );
    let mut obj = 6;
    let trailer_reserve = 200;
    while out.len() - start + trailer_reserve < size {
        let room = size - (out.len() - start) - trailer_reserve;
        let n = room.min(64 * 1024 + rng.below(64 * 1024) as usize);
        out.extend_from_slice(
            format!("{obj} 0 obj\n<< /Length {n} /Filter /FlateDecode >>\nstream\n").as_bytes(),
        );
        let at = out.len();
        out.resize(at + n, 0);
        rng.fill(&mut out[at..]);
        out.extend_from_slice(b"\nendstream\nendobj\n");
        obj += 1;
    }
    let xref = out.len() - start;
    out.extend_from_slice(
        format!("xref\n0 {obj}\n0000000000 65535 f \ntrailer\n<< /Size {obj} /Root 1 0 R /Info 5 0 R >>\nstartxref\n{xref}\n%%EOF\n")
            .as_bytes(),
    );
}

fn png_chunk(out: &mut Vec<u8>, ty: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    out.extend_from_slice(ty);
    out.extend_from_slice(data);
    let mut crc = flate2::Crc::new();
    crc.update(ty);
    crc.update(data);
    out.extend_from_slice(&crc.sum().to_be_bytes());
}
