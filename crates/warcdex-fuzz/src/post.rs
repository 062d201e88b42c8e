//! POST append: request bodies turned into query strings, the cdxj-indexer
//! way (`post::post_query`: form, multipart, JSON, binary) and the pywb way
//! (`post::pywb_method_query`: `cgi.FieldStorage` multipart, pywb's JSON).

use warcdex_core::post::{append_method_query, is_post_append_method, post_query, pywb_method_query, PostRequest, MAX_QUERY_LENGTH};
use warcdex_core::surt::surt;

/// The input as a request: three lines (method, Content-Type,
/// Content-Length; an empty line means the header is absent), then the body.
fn request(data: &[u8]) -> (String, Option<String>, Option<String>, &[u8]) {
    let mut parts = data.splitn(4, |&b| b == b'\n');
    let mut line = || parts.next().map(|l| String::from_utf8_lossy(l).into_owned());
    let method = line().unwrap_or_default();
    let content_type = line().filter(|s| !s.is_empty());
    let content_length = line().filter(|s| !s.is_empty());
    let body = parts.next().unwrap_or_default();
    (method, content_type, content_length, body)
}

/// Target `post_body`.
///
/// Checks: queries are at most 4096 characters; `None` (an unreadable
/// length) only comes with a Content-Length; pywb's method is upper-cased;
/// the key URLs start with the URL and SURT without panicking; a form body
/// without escapes is its own query.
pub fn post_body(data: &[u8]) {
    let (method, content_type, content_length, body) = request(data);
    let req = PostRequest { method: &method, content_type: content_type.as_deref(), content_length: content_length.as_deref(), body };
    let url = "http://example.com/path?x=1";
    match post_query(&req) {
        Ok(Some(q)) => {
            assert!(q.chars().count() <= MAX_QUERY_LENGTH, "query of {} characters", q.chars().count());
            let key_url = append_method_query(url, &method, &q);
            assert!(key_url.starts_with(url));
            let _ = surt(&key_url);
            let plain_form = method == "POST"
                && content_type.as_deref() == Some("application/x-www-form-urlencoded")
                && content_length.is_none()
                && body.len() <= 8192
                && std::str::from_utf8(body).is_ok_and(|t| !t.contains(['%', '+']) && t.chars().count() <= MAX_QUERY_LENGTH);
            if plain_form {
                assert_eq!(q.as_bytes(), body, "a form body without escapes is its own query");
            }
        }
        Ok(None) => assert!(content_length.is_some(), "no query without a Content-Length to blame"),
        Err(_) => {}
    }
    let _ = is_post_append_method(&method);

    if let Ok(q) = pywb_method_query(&method, content_type.as_deref(), content_length.as_deref(), body) {
        assert_eq!(q.method, method.to_uppercase());
        assert!(q.query.chars().count() <= MAX_QUERY_LENGTH, "pywb query of {} characters", q.query.chars().count());
        let key_url = q.append_query(url);
        assert!(key_url.starts_with(url));
        let _ = surt(&key_url);
    }
}
