//! The few pieces of Thrift's compact protocol a Parquet writer needs: page
//! headers, the footer and the page index are Thrift structs.
//!
//! Fields are written in increasing id order inside one struct; `begin` and
//! `end` bracket nested structs (the id delta restarts in each).

use crate::varint;

const BOOL_TRUE: u8 = 1;
const BOOL_FALSE: u8 = 2;
const I8: u8 = 3;
const I16: u8 = 4;
const I32: u8 = 5;
const I64: u8 = 6;
const BINARY: u8 = 8;
const LIST: u8 = 9;
const STRUCT: u8 = 12;

#[derive(Default)]
pub struct Thrift {
    pub buf: Vec<u8>,
    /// Last field id of each open struct.
    last: Vec<i16>,
    cur: i16,
}

/// An element type of a list.
#[derive(Clone, Copy)]
pub enum Elem {
    Bool,
    I32,
    I64,
    Binary,
    Struct,
}

impl Elem {
    fn code(self) -> u8 {
        match self {
            Elem::Bool => BOOL_TRUE,
            Elem::I32 => I32,
            Elem::I64 => I64,
            Elem::Binary => BINARY,
            Elem::Struct => STRUCT,
        }
    }
}

impl Thrift {
    pub fn new() -> Thrift {
        Thrift::default()
    }

    fn varint(&mut self, v: u64) {
        varint::put(&mut self.buf, v);
    }

    fn zigzag(&mut self, v: i64) {
        varint::put_signed(&mut self.buf, v);
    }

    fn field(&mut self, id: i16, ty: u8) {
        let delta = id - self.cur;
        if (1..=15).contains(&delta) {
            self.buf.push((delta as u8) << 4 | ty);
        } else {
            self.buf.push(ty);
            self.zigzag(id as i64);
        }
        self.cur = id;
    }

    pub fn i8(&mut self, id: i16, v: i8) -> &mut Self {
        self.field(id, I8);
        self.buf.push(v as u8);
        self
    }

    pub fn i16(&mut self, id: i16, v: i16) -> &mut Self {
        self.field(id, I16);
        self.zigzag(v as i64);
        self
    }

    pub fn i32(&mut self, id: i16, v: i32) -> &mut Self {
        self.field(id, I32);
        self.zigzag(v as i64);
        self
    }

    pub fn i64(&mut self, id: i16, v: i64) -> &mut Self {
        self.field(id, I64);
        self.zigzag(v);
        self
    }

    pub fn bool(&mut self, id: i16, v: bool) -> &mut Self {
        self.field(id, if v { BOOL_TRUE } else { BOOL_FALSE });
        self
    }

    pub fn binary(&mut self, id: i16, v: &[u8]) -> &mut Self {
        self.field(id, BINARY);
        self.bytes(v);
        self
    }

    /// Opens a struct-valued field.
    pub fn begin(&mut self, id: i16) -> &mut Self {
        self.field(id, STRUCT);
        self.open()
    }

    /// Opens a struct that is a list element or the top-level value.
    pub fn open(&mut self) -> &mut Self {
        self.last.push(self.cur);
        self.cur = 0;
        self
    }

    /// Closes the innermost struct.
    pub fn end(&mut self) -> &mut Self {
        self.buf.push(0);
        self.cur = self.last.pop().unwrap_or(0);
        self
    }

    /// An empty struct-valued field (the members of Thrift unions Parquet
    /// uses as enums: `STRING`, `MILLIS`, `TYPE_ORDER`...).
    pub fn empty(&mut self, id: i16) -> &mut Self {
        self.begin(id).end()
    }

    /// A list field header; the caller then writes `n` elements.
    pub fn list(&mut self, id: i16, elem: Elem, n: usize) -> &mut Self {
        self.field(id, LIST);
        if n < 15 {
            self.buf.push((n as u8) << 4 | elem.code());
        } else {
            self.buf.push(0xf0 | elem.code());
            self.varint(n as u64);
        }
        self
    }

    pub fn elem_i32(&mut self, v: i32) {
        self.zigzag(v as i64);
    }

    pub fn elem_i64(&mut self, v: i64) {
        self.zigzag(v);
    }

    pub fn elem_bool(&mut self, v: bool) {
        self.buf.push(if v { BOOL_TRUE } else { BOOL_FALSE });
    }

    pub fn bytes(&mut self, v: &[u8]) {
        self.varint(v.len() as u64);
        self.buf.extend_from_slice(v);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compact_encoding() {
        let mut t = Thrift::new();
        t.open().i32(1, 3).i64(2, -1).bool(3, true).binary(20, b"ab").begin(21).empty(1).end().list(22, Elem::I32, 2);
        t.elem_i32(1);
        t.elem_i32(-2);
        t.end();
        assert_eq!(
            t.buf,
            [
                0x15, 6, // field 1 i32 3 (zigzag 6)
                0x16, 1, // field 2 i64 -1
                0x11, // field 3 bool true
                0x08, 40, 2, b'a', b'b', // field 20: long form (type, zigzag id 40)
                0x1c, // field 21 struct (delta 1)
                0x1c, 0, // its field 1: empty struct
                0, // end of 21
                0x19, 0x25, 2, 3, // field 22 list<i32> of 2: 1, -2
                0
            ]
        );
    }
}
