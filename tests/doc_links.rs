//! Every relative link in the repository's Markdown files leads somewhere: the file or folder
//! exists, and a `#fragment` names a heading of the Markdown file it points into (GitHub's
//! rule: lower case, spaces to `-`, punctuation other than `-` and `_` dropped). Links inside
//! code blocks and code spans are text, not links; absolute URLs are not fetched.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The Markdown files of the repository, outside build output and dependencies.
fn markdown_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let skip = ["target", "node_modules", ".git", "dist"];
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if path.is_dir() {
            if !skip.contains(&name.as_str()) && !name.starts_with('.') {
                markdown_files(&path, out);
            }
        } else if name.ends_with(".md") {
            out.push(path);
        }
    }
}

/// The text outside fenced code blocks and code spans.
fn prose(text: &str) -> String {
    let mut out = String::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let mut in_span = false;
        for c in line.chars() {
            if c == '`' {
                in_span = !in_span;
            } else if !in_span {
                out.push(c);
            }
        }
        out.push('\n');
    }
    out
}

/// The targets of the inline links `[text](target)` and images `![alt](target)`.
fn link_targets(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        let Some(end) = after.find(')') else { break };
        let target = after[..end].split_whitespace().next().unwrap_or("");
        out.push(target.to_string());
        rest = &after[end..];
    }
    out
}

/// The anchors GitHub gives the headings of `text`.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        }
        if fenced || !line.starts_with('#') {
            continue;
        }
        let title = line.trim_start_matches('#').trim();
        let slug: String = title
            .to_lowercase()
            .chars()
            .filter_map(|c| match c {
                ' ' => Some('-'),
                c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
                _ => None,
            })
            .collect();
        seen.insert(slug);
    }
    seen
}

fn broken_links(file: &Path, text: &str) -> Vec<String> {
    let mut broken = Vec::new();
    for target in link_targets(&prose(text)) {
        if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
            continue;
        }
        let (path, fragment) = match target.split_once('#') {
            Some((path, fragment)) => (path, Some(fragment)),
            None => (target.as_str(), None),
        };
        let dest = if path.is_empty() {
            file.to_path_buf()
        } else {
            file.parent().unwrap().join(path)
        };
        if !dest.exists() {
            broken.push(format!("{target}: no such file"));
            continue;
        }
        if let Some(fragment) = fragment {
            if dest.extension().is_some_and(|e| e == "md") {
                let heads = anchors(&std::fs::read_to_string(&dest).unwrap());
                if !heads.contains(fragment) {
                    broken.push(format!("{target}: no heading '#{fragment}'"));
                }
            }
        }
    }
    broken
}

#[test]
fn every_relative_link_in_the_markdown_resolves() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    markdown_files(root, &mut files);
    files.sort();
    assert!(files.len() >= 10, "{files:?}");
    let mut broken = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for why in broken_links(file, &text) {
            broken.push(format!(
                "{}: {why}",
                file.strip_prefix(root).unwrap().display()
            ));
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn a_missing_file_and_a_missing_heading_are_caught() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let file = root.join("docs/install.md");
    let text = "[a](protocols.md#no-such-heading) [b](no-such-file.md) [c](protocols.md#options) \
                `[d](not-a-link.md)` [e](https://example.com/x)";
    let broken = broken_links(&file, text);
    assert_eq!(broken.len(), 2, "{broken:?}");
    assert!(broken[0].contains("no heading"), "{broken:?}");
    assert!(broken[1].contains("no such file"), "{broken:?}");
}
