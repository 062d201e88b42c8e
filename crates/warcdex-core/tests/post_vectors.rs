//! Differential test of the POST/PUT append query against cdxj-indexer
//! itself: `fixtures/post-vectors.json` holds request bodies and what the
//! reference answered for each (regenerate with
//! `fixtures/gen_post_vectors.py`). Every disagreement is listed.
//!
//! For a soak run, point `WARCDEX_POST_VECTORS` at a larger file made with
//! `gen_post_vectors.py --scale K --seed N --output FILE`.

use serde_json::Value;
use warcdex_core::post::{
    append_method_query, is_post_append_method, post_query, MultipartError, PostQueryError,
    PostRequest,
};

const VECTORS: &str = include_str!("fixtures/post-vectors.json");

/// What the reference did with one request.
enum Expected<'a> {
    /// `append_method_query` returned this query (`None` = Python `None`)
    /// and, for direct calls, this URL to be SURT-ed.
    Query {
        query: Option<&'a str>,
        appended_url: Option<&'a str>,
    },
    /// The reference raised (cdxj-indexer would stop indexing the file).
    Raises(&'a str),
}

fn expected(vector: &Value) -> Expected<'_> {
    let expected = &vector["expected"];
    match expected.get("raises") {
        Some(name) => Expected::Raises(name.as_str().expect("exception name")),
        None => Expected::Query {
            query: expected["query"].as_str(),
            appended_url: expected["appended_url"].as_str(),
        },
    }
}

/// Errors standing for behaviour this port deliberately does not reproduce.
fn is_unsupported(error: &PostQueryError) -> bool {
    matches!(
        error,
        PostQueryError::AmfUnsupported
            | PostQueryError::Multipart(MultipartError::UnsupportedCharset(_))
    )
}

enum Outcome {
    Pass,
    Unsupported,
    Fail(String),
}

fn check(vector: &Value) -> Outcome {
    let text = |key: &str| vector[key].as_str();
    let method = text("method").expect("method");
    let body = data_encoding::BASE64
        .decode(text("body_b64").expect("body").as_bytes())
        .expect("base64 body");
    let request = PostRequest {
        method,
        content_type: text("content_type"),
        content_length: text("content_length"),
        body: &body,
    };

    if is_post_append_method(method) != vector["applies"].as_bool().expect("applies") {
        return Outcome::Fail(format!("is_post_append_method({method:?}) disagrees"));
    }
    let actual = post_query(&request);
    match (expected(vector), actual) {
        (_, Err(error)) if is_unsupported(&error) => Outcome::Unsupported,
        (Expected::Raises(_), Err(_)) => Outcome::Pass,
        (Expected::Raises(name), Ok(query)) => {
            Outcome::Fail(format!("reference raised {name}, got Ok({query:?})"))
        }
        (Expected::Query { query, .. }, Err(error)) => {
            Outcome::Fail(format!("expected {query:?}, got error {error}"))
        }
        (
            Expected::Query {
                query,
                appended_url,
            },
            Ok(actual),
        ) => {
            if actual.as_deref() != query {
                return Outcome::Fail(format!("expected {query:?}\n      got      {actual:?}"));
            }
            let url = text("url").expect("url");
            let appended = append_method_query(url, method, actual.as_deref().unwrap_or(""));
            match appended_url {
                Some(expected_url) if expected_url != appended => Outcome::Fail(format!(
                    "appended URL {appended:?}, expected {expected_url:?}"
                )),
                _ => Outcome::Pass,
            }
        }
    }
}

#[test]
fn every_vector_matches_cdxj_indexer() {
    let soak_file = std::env::var("WARCDEX_POST_VECTORS").ok();
    let text = match &soak_file {
        Some(path) => std::fs::read_to_string(path).expect("readable vector file"),
        None => VECTORS.to_owned(),
    };
    let document: Value = serde_json::from_str(&text).expect("vectors are JSON");
    let vectors = document["vectors"].as_array().expect("vector list");
    assert!(
        vectors.len() >= 300,
        "expected a few hundred vectors, found {}",
        vectors.len()
    );

    let mut passed = 0;
    let mut unsupported = Vec::new();
    let mut failures = Vec::new();
    for vector in vectors {
        let name = vector["name"].as_str().unwrap_or("?");
        match check(vector) {
            Outcome::Pass => passed += 1,
            Outcome::Unsupported => unsupported.push(name),
            Outcome::Fail(reason) => failures.push(format!("  {name}: {reason}")),
        }
    }
    println!(
        "post vectors: {passed} match, {} not reproduced by design ({}), {} differ",
        unsupported.len(),
        unsupported.join(", "),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {} vectors differ:\n{}",
        failures.len(),
        vectors.len(),
        failures.join("\n")
    );
}
