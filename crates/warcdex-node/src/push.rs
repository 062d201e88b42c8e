//! Bytes pushed from JavaScript (a Node Readable or a Buffer) as a blocking
//! `Read` for the worker thread. JavaScript keeps the queue bounded by
//! waiting for it to drain before pushing more.

use std::collections::VecDeque;
use std::io::{self, Read};
use std::sync::{Arc, Condvar, Mutex};

#[derive(Default)]
struct State {
    chunks: VecDeque<Vec<u8>>,
    /// Bytes of `chunks[0]` already read.
    head_pos: usize,
    queued: usize,
    ended: bool,
    aborted: Option<String>,
}

#[derive(Default)]
pub struct PushQueue {
    state: Mutex<State>,
    changed: Condvar,
}

impl PushQueue {
    pub fn new() -> Arc<Self> {
        Arc::new(Self::default())
    }

    pub fn push(&self, chunk: Vec<u8>) {
        let mut s = self.state.lock().unwrap_or_else(|p| p.into_inner());
        if s.aborted.is_some() {
            // Nobody will read it: keep memory bounded while the feeder winds down.
            return;
        }
        s.queued += chunk.len();
        s.chunks.push_back(chunk);
        self.changed.notify_all();
    }

    pub fn end(&self) {
        let mut s = self.state.lock().unwrap_or_else(|p| p.into_inner());
        s.ended = true;
        self.changed.notify_all();
    }

    pub fn abort(&self, reason: String) {
        let mut s = self.state.lock().unwrap_or_else(|p| p.into_inner());
        s.aborted = Some(reason);
        self.changed.notify_all();
    }

    pub fn queued(&self) -> usize {
        self.state.lock().unwrap_or_else(|p| p.into_inner()).queued
    }

    /// Blocks until fewer than `low` bytes are queued (or the queue is aborted).
    pub fn wait_below(&self, low: usize) {
        let mut s = self.state.lock().unwrap_or_else(|p| p.into_inner());
        while s.queued >= low && s.aborted.is_none() {
            s = self.changed.wait(s).unwrap_or_else(|p| p.into_inner());
        }
    }
}

/// The reading end, owned by the worker.
pub struct PushReader(pub Arc<PushQueue>);

impl Read for PushReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let q = &self.0;
        let mut s = q.state.lock().unwrap_or_else(|p| p.into_inner());
        loop {
            // Bytes queued before an abort are still read, so that a stream
            // that fails is read up to where it failed, every time.
            if let Some(front) = s.chunks.front() {
                let start = s.head_pos;
                let n = (front.len() - start).min(buf.len());
                buf[..n].copy_from_slice(&front[start..start + n]);
                let exhausted = start + n == front.len();
                if exhausted {
                    s.chunks.pop_front();
                    s.head_pos = 0;
                } else {
                    s.head_pos += n;
                }
                s.queued -= n;
                q.changed.notify_all();
                return Ok(n);
            }
            if let Some(reason) = &s.aborted {
                return Err(io::Error::other(reason.clone()));
            }
            if s.ended {
                return Ok(0);
            }
            s = q.changed.wait(s).unwrap_or_else(|p| p.into_inner());
        }
    }
}
