//! The protocol transcripts in the Markdown documents, replayed against the binary: every
//! ```` ```text ```` block whose first line sent is `usi`, `uci` or `xboard`. Lines `> ...` are
//! sent in order; each line `< ...` must come out after the previous one (other output may come
//! between, which `< ...` alone says in the text). Words after `nps`, `time` and `hashfull` may
//! differ (they measure the machine); a `...` word inside a line stands for any words there. The
//! transcripts search to a fixed depth on one thread, so everything else is exact.

mod common;

use std::path::{Path, PathBuf};
use std::time::Duration;

/// The Markdown files that may hold transcripts.
fn documents() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("README.md"), root.join("wasm/README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    files
}

/// Each transcript of `text`: its first line number and its `>`/`<` lines.
fn transcripts(text: &str) -> Vec<(usize, Vec<String>)> {
    let mut out = Vec::new();
    let mut block: Option<(usize, Vec<String>)> = None;
    for (i, line) in text.lines().enumerate() {
        match (&mut block, line.trim_end()) {
            (None, "```text") => block = Some((i + 2, Vec::new())),
            (Some(_), "```") => {
                let (at, lines) = block.take().unwrap();
                let first_sent = lines.iter().find_map(|l| l.strip_prefix("> "));
                if matches!(first_sent, Some("usi" | "uci" | "xboard")) {
                    out.push((at, lines));
                }
            }
            (Some((_, lines)), l) if l.starts_with("> ") || l.starts_with("< ") => {
                lines.push(l.to_string());
            }
            _ => {}
        }
    }
    out
}

/// Whether output `actual` is what the transcript's `expected` shows.
fn matches(expected: &str, actual: &str) -> bool {
    let want: Vec<&str> = expected.split_whitespace().collect();
    let got: Vec<&str> = actual.split_whitespace().collect();
    if let Some(gap) = want.iter().position(|&w| w == "...") {
        let (head, tail) = (&want[..gap], &want[gap + 1..]);
        return got.len() >= head.len() + tail.len()
            && got.starts_with(head)
            && got.ends_with(tail);
    }
    want.len() == got.len()
        && want.iter().zip(&got).enumerate().all(|(i, (w, g))| {
            w == g || (i > 0 && matches!(want[i - 1], "nps" | "time" | "hashfull"))
        })
}

#[test]
fn every_protocol_transcript_in_the_docs_is_what_the_binary_says() {
    let mut checked = 0;
    for path in documents() {
        let text = std::fs::read_to_string(&path).unwrap();
        for (at, lines) in transcripts(&text) {
            let mut engine = common::Transcript::shishi();
            for line in &lines {
                if let Some(sent) = line.strip_prefix("> ") {
                    engine.send(sent);
                    continue;
                }
                let want = &line[2..];
                if want == "..." {
                    continue;
                }
                let seen = std::iter::from_fn(|| engine.next_line(Duration::from_secs(10)))
                    .find(|got| matches(want, got));
                assert!(
                    seen.is_some(),
                    "{}:{at}: no output line like '{want}'",
                    path.display()
                );
            }
            engine.close();
            checked += 1;
        }
    }
    assert!(checked >= 2, "{checked} transcripts");
}

#[test]
fn the_matching_rules_can_fail() {
    assert!(matches(
        "bestmove 8j7j ponder 5c6c",
        "bestmove 8j7j ponder 5c6c"
    ));
    assert!(!matches(
        "bestmove 8j7j ponder 5c6c",
        "bestmove 8j7j ponder 5c6d"
    ));
    assert!(matches(
        "info nodes 5 nps 1 time 2",
        "info nodes 5 nps 9 time 7"
    ));
    assert!(!matches("info nodes 5 nps 1", "info nodes 6 nps 1"));
    assert!(matches(
        "feature a=1 ... done=1",
        "feature a=1 b=2 c=3 done=1"
    ));
    assert!(!matches("feature a=1 ... done=1", "feature a=2 b=2 done=1"));
}
