//! The lines of a buffered reader, handed out where they lie in its buffer.

use std::io::{self, BufRead};

/// Calls `f` with each line of `r`, without its `\n` (a `\r` stays), until
/// `f` returns `false`: the lines `BufRead::read_until(b'\n', ..)` would
/// read. Only a line split across two fills of the buffer is copied; line
/// ends are found with the memchr crate's vector search (std's is a word at
/// a time).
pub fn for_each_line<R: BufRead + ?Sized>(r: &mut R, mut f: impl FnMut(&[u8]) -> io::Result<bool>) -> io::Result<()> {
    // The start of a line that the last fill ended in.
    let mut carry = Vec::new();
    loop {
        let avail = match r.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if avail.is_empty() {
            return if carry.is_empty() { Ok(()) } else { f(&carry).map(drop) };
        }
        let mut used = 0;
        let mut go_on = true;
        for end in memchr::memchr_iter(b'\n', avail) {
            go_on = if carry.is_empty() {
                f(&avail[used..end])?
            } else {
                carry.extend_from_slice(&avail[..end]);
                let go_on = f(&carry)?;
                carry.clear();
                go_on
            };
            used = end + 1;
            if !go_on {
                break;
            }
        }
        if !go_on {
            r.consume(used);
            return Ok(());
        }
        carry.extend_from_slice(&avail[used..]);
        let n = avail.len();
        r.consume(n);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::BufReader;

    #[test]
    fn lines_as_read_until_reads_them() {
        for text in [&b"first line\n\nthird, longer than the buffer is wide\r\nlast without newline"[..], b"\n\nends with a newline\n", b"", b"x"] {
            for cap in [1, 2, 3, 7, 64, 4096] {
                let mut want = Vec::new();
                let mut b = BufReader::with_capacity(cap, text);
                loop {
                    let mut y = Vec::new();
                    if b.read_until(b'\n', &mut y).unwrap() == 0 {
                        break;
                    }
                    if y.last() == Some(&b'\n') {
                        y.pop();
                    }
                    want.push(y);
                }
                let mut got = Vec::new();
                for_each_line(&mut BufReader::with_capacity(cap, text), |l| {
                    got.push(l.to_vec());
                    Ok(true)
                })
                .unwrap();
                assert_eq!(got, want, "capacity {cap}");
                // Stopping early, inside a fill and across fills.
                for stop in 1..want.len() {
                    let mut n = 0;
                    let mut r = BufReader::with_capacity(cap, text);
                    for_each_line(&mut r, |_| {
                        n += 1;
                        Ok(n < stop)
                    })
                    .unwrap();
                    assert_eq!(n, stop, "capacity {cap}, stop after {stop}");
                }
            }
        }
    }
}
