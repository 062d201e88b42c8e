#!/usr/bin/env python3
"""Generate src/surt/idna2003_tables.rs: the data behind Python's `idna` codec.

The SURT reference (Python `surt` 0.3.1) converts non-ASCII host names with
`str.encode('idna')`, i.e. CPython's `encodings.idna` (IDNA 2003: nameprep =
stringprep tables B.1/B.2 + NFKC of Unicode 3.2, then the prohibition and
bidi checks).  To be byte-identical we do not derive the tables from the
RFCs: we probe the very functions CPython calls, so its quirks come along:

* mapping: `stringprep.in_table_b1` / `stringprep.map_table_b2`, per code point
  (map_table_b3 lower-cases with the *current* Unicode database);
* decomposition: `unicodedata.ucd_3_2_0.normalize('NFKD', ch)`, per code point;
* canonical reordering and composition inside `ucd_3_2_0.normalize` use the
  *current* database's combining classes and composition pairs (checked in
  CPython's unicodedata.c), so those two tables come from `unicodedata`;
* prohibited output (C.1.2, C.2.2, C.3-C.9) and the bidi classes D.1/D.2.

Run with the Python whose behaviour is the reference (the one `surt` is
installed in) and commit the output:

    python3 tools/gen_idna2003_tables.py > src/surt/idna2003_tables.rs
"""
import stringprep
import sys
import unicodedata

OLD = unicodedata.ucd_3_2_0

HANGUL_FIRST, HANGUL_LAST = 0xAC00, 0xD7A3


def all_code_points():
    for cp in range(0x110000):
        if 0xD800 <= cp <= 0xDFFF:
            continue  # cannot occur in text decoded from UTF-8
        yield cp


def nameprep_mapping(ch):
    if stringprep.in_table_b1(ch):
        return ""
    return stringprep.map_table_b2(ch)


def is_prohibited(ch):
    return (stringprep.in_table_c12(ch) or stringprep.in_table_c22(ch)
            or stringprep.in_table_c3(ch) or stringprep.in_table_c4(ch)
            or stringprep.in_table_c5(ch) or stringprep.in_table_c6(ch)
            or stringprep.in_table_c7(ch) or stringprep.in_table_c8(ch)
            or stringprep.in_table_c9(ch))


def ranges(pred):
    """Inclusive (first, last) ranges of code points where pred holds."""
    out = []
    for cp in all_code_points():
        if pred(chr(cp)):
            if out and out[-1][1] == cp - 1:
                out[-1][1] = cp
            else:
                out.append([cp, cp])
    return out


def string_table(name, entries):
    """entries: sorted (cp, replacement str). Emits an index and one string."""
    data = []
    index = []
    offset = 0
    for cp, rep in entries:
        encoded = rep.encode("utf-8")
        index.append((cp, offset, offset + len(encoded)))
        data.append(rep)
        offset += len(encoded)
    assert offset < 1 << 16
    lines = [f"/// (code point, start, end): replacement is `{name}_DATA[start..end]`.",
             f"pub(super) static {name}: [(u32, u16, u16); {len(index)}] = ["]
    lines.append(rows([f"(0x{cp:04X}, {a}, {b})," for cp, a, b in index], 5).rstrip("\n"))
    lines.append("];")
    lines.append(f"pub(super) static {name}_DATA: &str = {rust_str(''.join(data))};")
    return "\n".join(lines)


def rust_str(s):
    """A Rust string literal, wrapped with `\\` line continuations.

    Spaces are escaped too, because a continuation swallows the leading
    whitespace of the next line."""
    tokens = [c if 0x20 < ord(c) < 0x7F and c not in '"\\' else f"\\u{{{ord(c):X}}}" for c in s]
    lines, line = [], ""
    for t in tokens:
        if len(line) + len(t) > 90:
            lines.append(line)
            line = ""
        line += t
    lines.append(line)
    return '"\\\n    ' + "\\\n    ".join(lines) + '"'


def rows(items, per_line):
    """Format table entries several to a line."""
    return "".join("    " + " ".join(items[i:i + per_line]) + "\n"
                   for i in range(0, len(items), per_line))


def range_table(name, doc, rs):
    lines = [f"/// {doc}", f"pub(super) static {name}: [(u32, u32); {len(rs)}] = ["]
    lines.append(rows([f"(0x{a:04X}, 0x{b:04X})," for a, b in rs], 6).rstrip("\n"))
    lines.append("];")
    return "\n".join(lines)


def main():
    mapping = []
    decomposition = []
    for cp in all_code_points():
        ch = chr(cp)
        m = nameprep_mapping(ch)
        if m != ch:
            mapping.append((cp, m))
        if not HANGUL_FIRST <= cp <= HANGUL_LAST:
            d = OLD.normalize("NFKD", ch)
            if d != ch:
                decomposition.append((cp, d))

    ccc = []
    for cp in all_code_points():
        c = unicodedata.combining(chr(cp))
        if c:
            if ccc and ccc[-1][1] == cp - 1 and ccc[-1][2] == c:
                ccc[-1][1] = cp
            else:
                ccc.append([cp, cp, c])

    # Primary composites of the current database: a canonical two-character
    # decomposition starting with a starter, not excluded from composition
    # (an excluded character never survives NFC).
    compose = []
    for cp in all_code_points():
        if HANGUL_FIRST <= cp <= HANGUL_LAST:
            continue
        d = unicodedata.decomposition(chr(cp))
        if not d or d.startswith("<"):
            continue
        parts = [int(x, 16) for x in d.split()]
        if len(parts) != 2 or unicodedata.combining(chr(parts[0])) != 0:
            continue
        if unicodedata.normalize("NFC", chr(cp)) == chr(cp):
            compose.append((parts[0], parts[1], cp))
    compose.sort()

    out = sys.stdout
    out.write("// @generated by tools/gen_idna2003_tables.py from CPython "
              f"{sys.version.split()[0]} (unicodedata {unicodedata.unidata_version}, "
              f"ucd {OLD.unidata_version}). Do not edit.\n")
    out.write("//! Tables for the IDNA 2003 `ToASCII` of CPython's `idna` codec.\n\n")
    out.write("/// Nameprep step 1: table B.1 (map to nothing) and B.2 (case fold).\n")
    out.write(string_table("NAMEPREP_MAP", mapping) + "\n\n")
    out.write("/// Full compatibility decomposition (Unicode 3.2, as CPython applies it);\n"
              "/// Hangul syllables are decomposed arithmetically instead.\n")
    out.write(string_table("DECOMPOSITION", decomposition) + "\n\n")
    out.write("/// Non-zero canonical combining classes: (first, last, class).\n")
    out.write(f"pub(super) static COMBINING_CLASS: [(u32, u32, u8); {len(ccc)}] = [\n")
    out.write(rows([f"(0x{a:04X}, 0x{b:04X}, {c})," for a, b, c in ccc], 4))
    out.write("];\n\n")
    out.write("/// Canonical composition pairs: (first, second, composite), sorted.\n")
    out.write(f"pub(super) static COMPOSITION: [(u32, u32, u32); {len(compose)}] = [\n")
    out.write(rows([f"(0x{a:04X}, 0x{b:04X}, 0x{c:04X})," for a, b, c in compose], 4))
    out.write("];\n\n")
    out.write(range_table("PROHIBITED", "Nameprep prohibited output (C.1.2, C.2.2, C.3-C.9).",
                          ranges(is_prohibited)) + "\n\n")
    out.write(range_table("BIDI_R_AL", "Table D.1: characters with bidi property R or AL.",
                          ranges(stringprep.in_table_d1)) + "\n\n")
    out.write(range_table("BIDI_L", "Table D.2: characters with bidi property L.",
                          ranges(stringprep.in_table_d2)) + "\n")


if __name__ == "__main__":
    main()
