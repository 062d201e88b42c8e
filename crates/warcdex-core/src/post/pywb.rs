//! POST append as pywb 2.x's `cdx-indexer -p` does it (its
//! `MethodQueryCanonicalizer`), which is older than cdxj-indexer's and
//! differs from it:
//!
//! - the method is upper-cased, and every method but `GET` is appended as
//!   `__wb_method=METHOD` (`HEAD`, `DELETE`... and `post` as `POST`);
//! - only `POST` and `PUT` (after upper-casing) have their body read, and
//!   only when `Content-Length` is a number above zero: a missing, invalid
//!   or zero length gives no query at all (cdxj-indexer reads 8192 bytes
//!   without one, and writes `requestBody: null` for an invalid one);
//! - the body is the raw HTTP payload of the request record: a chunked or
//!   gzipped body is not decoded first, so it usually ends up as base64;
//! - multipart bodies go through `cgi.FieldStorage` ([`super::cgi`]);
//! - JSON renders `true`/`false`/`null` and whole floats as integers, and has
//!   no line-by-line retry ([`super::pyjson::pywb_json_body_query`]);
//! - a JSON body that does not parse gives an empty query; if it is not
//!   UTF-8 either, pywb fails printing its warning and stops indexing.
//!
//! Form bodies (unquoted) and everything else (base64, cut to 4096
//! characters) are the same as in cdxj-indexer.

use super::cgi::{field_storage_query, CgiError};
use super::pyjson::pywb_json_body_query;
use super::pystr::parse_py_int;
use super::{binary_query, form_query, truncate_chars, PostQueryError, MAX_QUERY_LENGTH};

/// What pywb's canonicalizer makes of a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PywbMethodQuery {
    /// The method, upper-cased (Python's `str.upper()`).
    pub method: String,
    /// The body as a query, empty when there is none.
    pub query: String,
}

impl PywbMethodQuery {
    /// `append_query(url)`: the URL unchanged for `GET`, else with
    /// `__wb_method=METHOD` and the query (if any) appended after `?` (or
    /// `&` when the URL already has a `?`).
    pub fn append_query(&self, url: &str) -> String {
        if self.method == "GET" {
            return url.to_owned();
        }
        let separator = if url.contains('?') { '&' } else { '?' };
        let mut out = format!("{url}{separator}__wb_method={}", self.method);
        if !self.query.is_empty() {
            out.push('&');
            out.push_str(&self.query);
        }
        out
    }
}

/// The method and query pywb derives from a request.
///
/// `method` is the first word of the HTTP request line (warcio's default
/// `HTTP/1.0` when the record has no HTTP headers), `content_type` and
/// `content_length` the request's headers, `raw_body` the HTTP payload as
/// stored (not de-chunked, not decompressed).
pub fn pywb_method_query(
    method: &str,
    content_type: Option<&str>,
    content_length: Option<&str>,
    raw_body: &[u8],
) -> Result<PywbMethodQuery, PostQueryError> {
    let method = method.to_uppercase();
    let no_query = |method| Ok(PywbMethodQuery { method, query: String::new() });
    if method != "POST" && method != "PUT" {
        return no_query(method);
    }
    let length = match content_length.and_then(parse_py_int) {
        Some(n) if n > 0 => usize::try_from(n).unwrap_or(usize::MAX),
        _ => return no_query(method),
    };
    let body = &raw_body[..length.min(raw_body.len())];
    let mime = content_type.unwrap_or("");
    let query = if mime.starts_with("application/x-www-form-urlencoded") {
        form_query(body)
    } else if mime.starts_with("multipart/") {
        match field_storage_query(mime, body) {
            Ok(Some(query)) => query,
            Ok(None) => binary_query(body),
            Err(CgiError::NestedForm(t)) => return Err(PostQueryError::PywbNestedForm(t)),
        }
    } else if mime.starts_with("application/x-amf") {
        return Err(PostQueryError::AmfUnsupported);
    } else if mime.starts_with("application/json") {
        match pywb_json_body_query(body) {
            Some(query) => query,
            None if std::str::from_utf8(body).is_err() => return Err(PostQueryError::PywbUndecodableJson),
            None => String::new(),
        }
    } else if mime.starts_with("text/plain") {
        pywb_json_body_query(body).unwrap_or_else(|| binary_query(body))
    } else {
        binary_query(body)
    };
    Ok(PywbMethodQuery { method, query: truncate_chars(query, MAX_QUERY_LENGTH) })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(method: &str, content_type: Option<&str>, length: Option<&str>, body: &[u8]) -> (String, String) {
        let r = pywb_method_query(method, content_type, length, body).unwrap();
        let url = r.append_query("http://x/p");
        (r.query, url)
    }

    #[test]
    fn methods() {
        let form = Some("application/x-www-form-urlencoded");
        assert_eq!(q("post", form, Some("5"), b"a=1&b=2"), ("a=1&b".into(), "http://x/p?__wb_method=POST&a=1&b".into()));
        assert_eq!(q("DELETE", None, Some("3"), b"abc"), ("".into(), "http://x/p?__wb_method=DELETE".into()));
        assert_eq!(q("GET", None, Some("3"), b"abc"), ("".into(), "http://x/p".into()));
        // warcio's default headers for a request record without HTTP headers.
        assert_eq!(q("HTTP/1.0", None, Some("3"), b"abc").1, "http://x/p?__wb_method=HTTP/1.0");
        let r = pywb_method_query("put", None, Some("1"), b"x").unwrap();
        assert_eq!(r.append_query("http://x/p?q=1"), "http://x/p?q=1&__wb_method=PUT&__wb_post_data=eA==");
    }

    #[test]
    fn content_length_must_be_positive() {
        let form = Some("application/x-www-form-urlencoded");
        assert_eq!(q("POST", form, None, b"a=1").0, "");
        assert_eq!(q("POST", form, Some("0"), b"a=1").0, "");
        assert_eq!(q("POST", form, Some("-1"), b"a=1").0, "");
        assert_eq!(q("POST", form, Some("x"), b"a=1").0, "");
        assert_eq!(q("POST", form, Some(" 2 "), b"a=1").0, "a=");
        assert_eq!(q("POST", form, Some("99999999999999999999999"), b"a=1").0, "a=1");
    }

    #[test]
    fn raw_bodies_and_content_types() {
        // A chunked body is not de-chunked.
        let chunked = b"3\r\nabc\r\n0\r\n\r\n";
        assert_eq!(
            q("POST", Some("application/octet-stream"), Some("15"), chunked).0,
            format!("__wb_post_data={}", data_encoding::BASE64.encode(chunked))
        );
        assert_eq!(q("POST", Some("application/json"), Some("20"), br#"{"a":true,"b":1.0}"#).0, "a=true&b=1");
        assert_eq!(q("POST", Some("application/json"), Some("3"), b"bad").0, "");
        assert_eq!(
            pywb_method_query("POST", Some("application/json"), Some("3"), b"\xff\xfe\x00"),
            Err(PostQueryError::PywbUndecodableJson)
        );
        assert_eq!(q("POST", Some("text/plain"), Some("3"), b"bad").0, "__wb_post_data=YmFk");
        assert_eq!(q("POST", Some("multipart/form-data"), Some("1"), b"x").0, "__wb_post_data=eA==");
        let body = b"--B\r\nContent-Disposition: form-data; name=\"q\"\r\n\r\n[{\"a\":\"b\"}]\r\n--B--\r\n";
        assert_eq!(
            q("POST", Some("multipart/form-data; boundary=B"), Some(&body.len().to_string()), body).0,
            "q=%5B%7B%22a%22%3A%22b%22%7D%5D"
        );
    }
}
