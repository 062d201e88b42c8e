//! "POST append": the lookup key of a POST or PUT exchange carries the
//! request body, so that different form submissions to one URL get
//! different index keys. This reproduces cdxj-indexer 1.5.0 (`-p`,
//! `--post-append`) on warcio 1.8.1.
//!
//! When a request record and its response are paired, cdxj-indexer
//! 1. turns the request body into a query string ([`post_query`]), stored in
//!    the index as `requestBody` (JSON `null` when it could not be read);
//! 2. appends `__wb_method=<METHOD>` and that query to the target URI
//!    ([`append_method_query`]); the result is SURT-ed into the `urlkey` of
//!    both records, and `method` is set to the upper-cased method.
//!
//! Only requests whose method upper-cases to `POST` or `PUT` take part
//! ([`is_post_append_method`]), but the body itself is only read when the
//! method is written exactly `POST` or `PUT`: `post` gets an empty query.

mod cgi;
mod multipart;
mod pyjson;
mod pystr;
mod pywb;

pub use multipart::MultipartError;
pub use pywb::{pywb_method_query, PywbMethodQuery};

/// The query is cut to this many characters (Unicode code points, as Python
/// slices strings).
pub const MAX_QUERY_LENGTH: usize = 4096;

/// How much of the body is read when the request has no `Content-Length`.
pub const DEFAULT_READ_LENGTH: usize = 8192;

/// A request record as the POST append step sees it.
#[derive(Debug, Clone, Copy)]
pub struct PostRequest<'a> {
    /// The method as written in the HTTP request line (case kept).
    pub method: &'a str,
    /// The first `Content-Type` header value, as warcio parsed it (left
    /// whitespace trimmed, continuation lines joined), if any.
    pub content_type: Option<&'a str>,
    /// The first `Content-Length` header value, unparsed, if any.
    pub content_length: Option<&'a str>,
    /// The HTTP payload after warcio's `content_stream()` decoding: de-chunked
    /// when `Transfer-Encoding` is exactly `chunked` (falling back to the raw
    /// bytes from the first malformed chunk on), inflated when the lower-cased
    /// `Content-Encoding` is `gzip` or `deflate` (not `x-gzip`, not `br`
    /// without the brotli package). The whole of it: the `Content-Length`
    /// read limit is applied here, and JSON, multipart and UTF-8 checks look
    /// at everything read.
    pub body: &'a [u8],
}

/// Why no query could be produced.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PostQueryError {
    /// The multipart parser raised. cdxj-indexer does not catch this and
    /// aborts indexing the file, so there is no reference key to match.
    #[error("multipart body rejected: {0:?}")]
    Multipart(MultipartError),
    /// A `Content-Length` of 2^63 or more: Python's `read()` raises
    /// `OverflowError` and cdxj-indexer aborts indexing the file.
    #[error("Content-Length too large to read")]
    ContentLengthOverflow,
    /// `application/x-amf` bodies are decoded with PyAMF and rendered from
    /// Python object representations; that is not reproduced.
    #[error("application/x-amf request bodies are not supported")]
    AmfUnsupported,
    /// pywb style: a multipart part that is itself a form (its value is a
    /// list that pywb renders through Python object representations).
    #[error("multipart part of type {0:?} (a nested form) is not supported")]
    PywbNestedForm(String),
    /// pywb style: a JSON body that neither parses nor decodes as UTF-8;
    /// pywb fails writing its warning about it and stops indexing the file.
    #[error("JSON body that is neither valid JSON nor UTF-8 (pywb stops indexing here)")]
    PywbUndecodableJson,
}

/// Whether a request with this method gets the POST append treatment: its
/// Python `upper()` is `POST` or `PUT`.
pub fn is_post_append_method(method: &str) -> bool {
    matches!(method.to_uppercase().as_str(), "POST" | "PUT")
}

/// The query string derived from a request body (without `__wb_method`), as
/// cdxj-indexer's `query_extract`.
///
/// `Ok(None)` is the reference's `None`: a `Content-Length` that Python's
/// `int()` cannot read. The index then has `"requestBody": null` and the key
/// only gets the method. (The reference also gives `None` for an AMF body
/// PyAMF cannot decode; AMF is reported as [`PostQueryError::AmfUnsupported`].)
///
/// Not reproduced: for a body over 64 KiB the reference asks its spool file
/// for `Content-Length` bytes at once, so an absurd length (say 100 GB) makes
/// it fail with `MemoryError`; here the body is simply read to its end.
pub fn post_query(request: &PostRequest) -> Result<Option<String>, PostQueryError> {
    // cdxj-indexer compares the method case-sensitively here.
    if !matches!(request.method, "POST" | "PUT") {
        return Ok(Some(String::new()));
    }
    let Some(read_length) = read_length(request.content_length)? else {
        return Ok(None);
    };
    let body = &request.body[..read_length.min(request.body.len())];
    let query = body_query(request.content_type.unwrap_or(""), body)?;
    Ok(Some(truncate_chars(query, MAX_QUERY_LENGTH)))
}

/// The URL whose SURT is the lookup key: `url`, then `?` (or `&` if it
/// already has a query), `__wb_method=` and the method as written, then `&`
/// and the body query if there is one.
pub fn append_method_query(url: &str, method: &str, query: &str) -> String {
    let separator = if url.contains('?') { '&' } else { '?' };
    let mut appended = format!("{url}{separator}__wb_method={method}");
    if !query.is_empty() {
        appended.push('&');
        appended.push_str(query);
    }
    appended
}

/// How many body bytes are read: `Content-Length` as Python's `int()` reads
/// it (a negative length reads nothing), or 8192 without the header; `None`
/// for a value `int()` rejects. Python cannot even ask a stream for more than
/// `isize::MAX` bytes on a 64-bit build and raises `OverflowError`.
fn read_length(content_length: Option<&str>) -> Result<Option<usize>, PostQueryError> {
    let Some(text) = content_length else {
        return Ok(Some(DEFAULT_READ_LENGTH));
    };
    let Some(length) = pystr::parse_py_int(text) else {
        return Ok(None);
    };
    if length > i128::from(i64::MAX) {
        return Err(PostQueryError::ContentLengthOverflow);
    }
    Ok(Some(usize::try_from(length.max(0)).unwrap_or(usize::MAX)))
}

/// Dispatch on the content type. The tests are plain, case-sensitive
/// prefix matches on the whole header value, in this order.
fn body_query(content_type: &str, body: &[u8]) -> Result<String, PostQueryError> {
    if content_type.starts_with("application/x-www-form-urlencoded") {
        Ok(form_query(body))
    } else if content_type.starts_with("multipart/") {
        multipart_body_query(content_type, body)
    } else if content_type.starts_with("application/json") {
        // A body that does not parse is dropped, not encoded.
        Ok(pyjson::json_body_query(body).unwrap_or_default())
    } else if content_type.starts_with("text/plain") {
        // text/plain is tried as JSON (some sites post JSON with it) and
        // otherwise kept as binary.
        Ok(pyjson::json_body_query(body).unwrap_or_else(|| binary_query(body)))
    } else if content_type.starts_with("application/x-amf") {
        Err(PostQueryError::AmfUnsupported)
    } else {
        Ok(binary_query(body))
    }
}

/// A form body is already a query string: it is only percent-decoded (and
/// `+` turned into spaces). A body that is not UTF-8 is kept as binary.
fn form_query(body: &[u8]) -> String {
    match std::str::from_utf8(body) {
        Ok(text) => pystr::unquote_plus(text),
        Err(_) => binary_query(body),
    }
}

/// The boundary is whatever follows the first `boundary=`, up to a second
/// `boundary=` if any: quotes and further parameters included, as in the
/// reference. Without one the body is kept as binary.
fn multipart_body_query(content_type: &str, body: &[u8]) -> Result<String, PostQueryError> {
    let mut pieces = content_type.split("boundary=");
    pieces.next();
    match pieces.next() {
        Some(boundary) => {
            multipart::multipart_query(body, boundary).map_err(PostQueryError::Multipart)
        }
        None => Ok(binary_query(body)),
    }
}

/// `__wb_post_data=` and the standard, padded base64 of the body. Only the
/// first few thousand bytes can survive the 4096-character cut, so only those
/// are encoded (a multiple of 3, so the encoding is a prefix of the full one).
fn binary_query(body: &[u8]) -> String {
    const PREFIX: &str = "__wb_post_data=";
    let kept = (MAX_QUERY_LENGTH - PREFIX.len()).div_ceil(4) * 3;
    let encoded = data_encoding::BASE64.encode(&body[..kept.min(body.len())]);
    format!("{PREFIX}{encoded}")
}

fn truncate_chars(mut text: String, max_chars: usize) -> String {
    if let Some((cut, _)) = text.char_indices().nth(max_chars) {
        text.truncate(cut);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(method: &str, content_type: Option<&str>, body: &[u8]) -> Option<String> {
        let length = body.len().to_string();
        let request = PostRequest {
            method,
            content_type,
            content_length: Some(&length),
            body,
        };
        post_query(&request).unwrap()
    }

    #[test]
    fn form_bodies_are_unquoted() {
        let form = Some("application/x-www-form-urlencoded");
        assert_eq!(
            query("POST", form, b"foo=bar&dir=%2Fbaz").unwrap(),
            "foo=bar&dir=/baz"
        );
        assert_eq!(
            query("POST", form, "snowman=\u{2603}".as_bytes()).unwrap(),
            "snowman=\u{2603}"
        );
        assert_eq!(query("POST", form, b"\xff").unwrap(), "__wb_post_data=/w==");
        assert_eq!(
            query(
                "POST",
                Some("application/x-www-form-urlencoded, text/plain"),
                b"x=%2"
            )
            .unwrap(),
            "x=%2"
        );
    }

    #[test]
    fn content_types() {
        assert_eq!(
            query("POST", Some("application/octet-stream"), b"foo").unwrap(),
            "__wb_post_data=Zm9v"
        );
        assert_eq!(query("POST", None, b"").unwrap(), "__wb_post_data=");
        assert_eq!(
            query("POST", Some("Application/JSON"), b"{}").unwrap(),
            "__wb_post_data=e30="
        );
        assert_eq!(
            query("PUT", Some("application/json"), b"not json").unwrap(),
            ""
        );
        assert_eq!(
            query("POST", Some("text/plain"), b"{\"a\":2}").unwrap(),
            "a=2"
        );
        assert_eq!(
            query("POST", Some("text/plain"), b"not json").unwrap(),
            "__wb_post_data=bm90IGpzb24="
        );
        assert_eq!(
            query("POST", Some("multipart/form-data"), b"x").unwrap(),
            "__wb_post_data=eA=="
        );
        let request = PostRequest {
            method: "POST",
            content_type: Some("application/x-amf"),
            content_length: None,
            body: b"",
        };
        assert_eq!(post_query(&request), Err(PostQueryError::AmfUnsupported));
    }

    #[test]
    fn method_case_matters_for_the_body_only() {
        assert!(is_post_append_method("post"));
        assert!(is_post_append_method("Put"));
        assert!(!is_post_append_method("GET"));
        assert_eq!(
            query("post", Some("application/x-www-form-urlencoded"), b"a=b").unwrap(),
            ""
        );
    }

    #[test]
    fn content_length_controls_reading() {
        let request = |content_length| PostRequest {
            method: "POST",
            content_type: Some("application/x-www-form-urlencoded"),
            content_length,
            body: b"abcdef",
        };
        assert_eq!(post_query(&request(Some(" 2 "))).unwrap().unwrap(), "ab");
        assert_eq!(post_query(&request(Some("-1"))).unwrap().unwrap(), "");
        assert_eq!(post_query(&request(Some("99"))).unwrap().unwrap(), "abcdef");
        assert_eq!(post_query(&request(Some("zz"))).unwrap(), None);
        assert_eq!(
            post_query(&request(Some("9223372036854775807")))
                .unwrap()
                .unwrap(),
            "abcdef"
        );
        assert_eq!(
            post_query(&request(Some("9223372036854775808"))),
            Err(PostQueryError::ContentLengthOverflow)
        );
        assert_eq!(post_query(&request(None)).unwrap().unwrap(), "abcdef");
        let long_body = vec![b'a'; DEFAULT_READ_LENGTH + 10];
        let unsized_request = PostRequest {
            body: &long_body,
            ..request(None)
        };
        assert_eq!(
            post_query(&unsized_request).unwrap().unwrap().len(),
            MAX_QUERY_LENGTH
        );
    }

    #[test]
    fn queries_are_cut_by_characters() {
        let body = "é".repeat(5000);
        let cut = query(
            "POST",
            Some("application/x-www-form-urlencoded"),
            body.as_bytes(),
        )
        .unwrap();
        assert_eq!(cut.chars().count(), MAX_QUERY_LENGTH);
        let binary = query("POST", None, &[7u8; 5000]).unwrap();
        assert_eq!(binary.len(), MAX_QUERY_LENGTH);
        let full = format!(
            "__wb_post_data={}",
            data_encoding::BASE64.encode(&[7u8; 5000])
        );
        assert_eq!(binary, full[..MAX_QUERY_LENGTH]);
    }

    #[test]
    fn method_query_is_appended() {
        assert_eq!(
            append_method_query("http://x/p", "POST", "a=1"),
            "http://x/p?__wb_method=POST&a=1"
        );
        assert_eq!(
            append_method_query("http://x/p?q", "post", ""),
            "http://x/p?q&__wb_method=post"
        );
    }
}
