//! Perft suites from `positions/*.epd`, counts made by other implementations (see the files'
//! provenance comments). Each count up to `BUDGET` nodes is checked by `cargo test`; the deeper
//! ones run with `cargo test --release -- --ignored`.

use shishi::perft::perft_parallel;
use shishi::position::Position;
use shishi::rules::Preset;

const BUDGET: u64 = 12_000_000;

struct Case {
    line: usize,
    sfen: String,
    counts: Vec<(u32, u64)>,
}

fn read_suite(path: &str, column: &str) -> Vec<Case> {
    let text = std::fs::read_to_string(path).expect("suite file is readable");
    let mut cases = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split(';').map(str::trim).collect();
        let mut counts = Vec::new();
        for f in &fields[1..] {
            if column == "primary" {
                if let Some(rest) = f.strip_prefix('D') {
                    let mut it = rest.split_whitespace();
                    let d: u32 = it.next().unwrap().parse().unwrap();
                    let n: u64 = it.next().unwrap().parse().unwrap();
                    counts.push((d, n));
                }
            } else if let Some(rest) = f.strip_prefix("hachu ") {
                if rest.contains("kc") {
                    continue;
                }
                for (d, n) in rest.split('/').enumerate() {
                    counts.push((d as u32 + 1, n.parse().unwrap()));
                }
            }
        }
        if !counts.is_empty() {
            cases.push(Case {
                line: i + 1,
                sfen: fields[0].to_string(),
                counts,
            });
        }
    }
    assert!(!cases.is_empty(), "{path} has no cases for column {column}");
    cases
}

/// Checks the counts selected by `deep`: those within the budget, or those beyond it.
fn run(path: &str, column: &str, preset: Preset, deep: bool) {
    let mut checked = 0;
    let mut deferred = 0;
    for case in read_suite(path, column) {
        let pos = Position::from_sfen_any(&case.sfen)
            .unwrap_or_else(|e| panic!("{path}:{}: {e}", case.line))
            .with_rules(preset.rules());
        for &(depth, expected) in &case.counts {
            if (expected > BUDGET) != deep {
                deferred += 1;
                continue;
            }
            let got = perft_parallel(&pos, depth);
            assert_eq!(
                got,
                expected,
                "{path}:{} depth {depth} under {}: {}",
                case.line,
                preset.name(),
                case.sfen
            );
            checked += 1;
        }
    }
    assert!(checked > 0, "no count of {path} was checked");
    eprintln!(
        "{path} ({column}, {}): {checked} counts checked, {deferred} left to the {} run",
        preset.name(),
        if deep { "default" } else { "--ignored" }
    );
}

#[test]
fn chu_reference_counts() {
    run("positions/chu-perft.epd", "primary", Preset::Lishogi, false);
}

#[test]
fn heian_reference_counts() {
    run(
        "positions/heian-perft.epd",
        "primary",
        Preset::Lishogi,
        false,
    );
}

#[test]
#[ignore = "deep counts: run with --release -- --ignored"]
fn chu_reference_counts_deep() {
    run("positions/chu-perft.epd", "primary", Preset::Lishogi, true);
}

#[test]
#[ignore = "deep counts: run with --release -- --ignored"]
fn heian_reference_counts_deep() {
    run(
        "positions/heian-perft.epd",
        "primary",
        Preset::Lishogi,
        true,
    );
}
