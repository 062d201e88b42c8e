//! Synthetic vocabulary: real function words for the head of the Zipf
//! curve, pseudo-words for the tail, and a phrase book so that text repeats
//! multi-word sequences the way natural language does.

use crate::rng::{Cumulative, Rng};

/// The most frequent English words, so generated prose has a realistic head
/// of the Zipf curve; the tail is made of pseudo-words (see `Vocab::new`).
#[rustfmt::skip]
const COMMON: &[&str] = &[
    "the", "of", "and", "to", "in", "a", "is", "that", "for", "it", "as", "was", "with", "be",
    "by", "on", "not", "he", "this", "are", "or", "his", "from", "at", "which", "but", "have",
    "an", "they", "you", "were", "her", "she", "there", "would", "their", "we", "him", "been",
    "has", "when", "who", "will", "more", "no", "if", "out", "so", "said", "what", "up", "its",
    "about", "into", "than", "them", "can", "only", "other", "new", "some", "could", "time",
    "these", "two", "may", "then", "do", "first", "any", "my", "now", "such", "like", "our",
    "over", "man", "me", "even", "most", "made", "after", "also", "did", "many", "before",
    "must", "through", "back", "years", "where", "much", "your", "way", "well", "down",
    "should", "because", "each", "just", "those", "people", "how", "too", "little", "state",
    "good", "very", "make", "world", "still", "own", "see", "men", "work", "long", "get",
    "here", "between", "both", "life", "being", "under", "never", "day", "same", "another",
    "know", "while", "last", "might", "us", "great", "old", "year", "off", "come", "since",
    "against", "go", "came", "right", "used", "take", "three", "news", "page", "home", "search",
    "contact", "about", "service", "product", "information", "data", "report", "city",
    "school", "program", "research", "public", "market", "health", "water", "music", "video",
];

const ONSETS: &[&str] = &[
    "b", "c", "d", "f", "g", "h", "j", "k", "l", "m", "n", "p", "r", "s", "t", "v", "w", "st",
    "tr", "pl", "gr", "br", "ch", "sh", "th", "cl", "fr", "sp",
];
const NUCLEI: &[&str] = &["a", "e", "i", "o", "u", "ea", "ai", "ou", "io", "y"];
const CODAS: &[&str] = &[
    "", "", "", "n", "r", "s", "t", "l", "m", "nd", "st", "ck", "ng", "x",
];

/// Vocabulary size and Zipf exponents: tuned so that generated HTML
/// gzips about 4:1 like real pages (see the crate docs for measurements).
pub const VOCAB_SIZE: usize = 3000;
const ZIPF_S: f64 = 1.1;
const TAIL_ZIPF_S: f64 = 1.0;
const PHRASES: usize = 4000;
const PHRASE_ZIPF_S: f64 = 1.0;

/// Word list with Zipf-distributed frequencies.
pub struct Vocab {
    words: Vec<String>,
    zipf: Cumulative,
    /// Zipf over the non-COMMON words only.
    tail: Cumulative,
    /// Multi-word phrases: natural text repeats word sequences ("one of
    /// the", "in order to"), which is where most of deflate's matches on
    /// prose come from; independent words alone compress too poorly.
    phrases: Vec<String>,
    phrase_zipf: Cumulative,
}

impl Vocab {
    pub fn new(rng: &mut Rng, size: usize) -> Vocab {
        let mut words: Vec<String> = COMMON.iter().map(|w| w.to_string()).collect();
        let mut seen: std::collections::HashSet<String> = words.iter().cloned().collect();
        while words.len() < size {
            let syllables = 1 + rng.below(2) as usize + rng.below(2) as usize;
            let mut w = String::new();
            for _ in 0..syllables {
                w.push_str(rng.pick(ONSETS));
                w.push_str(rng.pick(NUCLEI));
                w.push_str(rng.pick(CODAS));
            }
            if seen.insert(w.clone()) {
                words.push(w);
            }
        }
        // s slightly above 1 keeps the head heavy, as in natural language.
        let zipf = Cumulative::zipf(words.len(), ZIPF_S);
        let tail = Cumulative::zipf(words.len() - COMMON.len(), TAIL_ZIPF_S);
        let mut v = Vocab {
            words,
            zipf,
            tail,
            phrases: Vec::new(),
            phrase_zipf: Cumulative::zipf(PHRASES, PHRASE_ZIPF_S),
        };
        // Each phrase mixes function words and content words and never
        // repeats a word back to back, so the text reads less like noise.
        v.phrases = (0..PHRASES)
            .map(|_| {
                let n = 1 + rng.below(4) as usize;
                let mut words: Vec<&str> = Vec::with_capacity(n);
                while words.len() < n {
                    let w = if rng.chance(0.5) {
                        v.word(rng)
                    } else {
                        v.rare(rng)
                    };
                    if words.last() != Some(&w) {
                        words.push(w);
                    }
                }
                words.join(" ")
            })
            .collect();
        v
    }

    pub fn word(&self, rng: &mut Rng) -> &str {
        &self.words[self.zipf.sample(rng)]
    }

    /// A word from the long tail only: path segments and class names look
    /// better without "the"/"of".
    pub fn rare(&self, rng: &mut Rng) -> &str {
        &self.words[COMMON.len() + self.tail.sample(rng)]
    }

    pub fn sentence(&self, rng: &mut Rng, out: &mut String) {
        let n = 3 + rng.below(6);
        for i in 0..n {
            let p = &self.phrases[self.phrase_zipf.sample(rng)];
            if i == 0 {
                let mut c = p.chars();
                if let Some(f) = c.next() {
                    out.extend(f.to_uppercase());
                    out.push_str(c.as_str());
                }
            } else {
                out.push(' ');
                out.push_str(p);
                if i + 1 < n && rng.chance(0.08) {
                    out.push(',');
                }
            }
        }
        out.push('.');
    }

    pub fn title(&self, rng: &mut Rng, words: usize) -> String {
        let mut s = String::new();
        for i in 0..words {
            if i > 0 {
                s.push(' ');
            }
            let w = self.rare(rng);
            let mut c = w.chars();
            if let Some(f) = c.next() {
                s.extend(f.to_uppercase());
                s.push_str(c.as_str());
            }
        }
        s
    }
}

pub fn capitalized(w: &str) -> String {
    let mut c = w.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}
