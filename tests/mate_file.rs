//! `shishi mate --file`: a problem line states the conditions its problem was composed under
//! (`RuleSet=...`, a single rule, `TsumeRoyals=...`), and the solver uses them for that line
//! alone.

mod common;

use common::run_shishi as shishi;

/// tumechu3 of the historic suite: King and Crown Prince defend; a mate in 17 when a check
/// must threaten both (the published convention), in 5 when an attack on either is a check.
const TWO_ROYALS: &str = "12/12/12/12/12/12/10s1/8+O1G1/8N3/6Q5/12/8G1k+e b - 1";

/// tumechu59: a JCSA-rules problem whose mate needs the counter-strike rule without the
/// recapture exception; under lishogi's rules the Horned Falcon's recapture escapes.
const JCSA_PROBLEM: &str =
    "1+S1s3+hf2Q/3+T+P+C4+B1/4gs1n2c1/12/6+oP2+t1/8O1R1/8+p3/10+p1/12/G11/+p11/k+pG8+v b - 1";

fn solve_file(name: &str, text: &str, extra: &[&str]) -> Vec<String> {
    let dir = std::env::temp_dir().join(format!("shishi-mate-file-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(name);
    std::fs::write(&file, text).unwrap();
    let mut args = vec!["mate", "--file", file.to_str().unwrap()];
    args.extend_from_slice(extra);
    let (code, stdout, stderr) = shishi(&args);
    assert_eq!(code, 0, "{stdout}{stderr}");
    stdout
        .lines()
        .filter(|l| l.starts_with("problem "))
        .map(str::to_string)
        .collect()
}

#[test]
fn a_line_may_set_the_royal_convention() {
    let text = format!("{TWO_ROYALS} ; 17\n{TWO_ROYALS} ; 17 ; TsumeRoyals=any  # either royal\n");
    let lines = solve_file("royals.epd", &text, &[]);
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(
        lines[0].starts_with("problem 1 (line 1): mate in 17 plies (shortest)"),
        "{lines:?}"
    );
    assert!(
        lines[1].starts_with("problem 2 (line 2, TsumeRoyals=any): mate in 5 plies (shortest)"),
        "{lines:?}"
    );
    // The command's --royals is what a line without its own convention gets.
    let lines = solve_file("royals.epd", &text, &["--royals", "any"]);
    assert!(lines[0].contains("mate in 5 plies"), "{lines:?}");
    // --option sets it as USI names it, and a line's own setting wins over the command's.
    let text = format!("{TWO_ROYALS} ; 17\n{TWO_ROYALS} ; 17 ; TsumeRoyals=all\n");
    let lines = solve_file("royals.epd", &text, &["--option", "TsumeRoyals=any"]);
    assert!(lines[0].contains("mate in 5 plies"), "{lines:?}");
    assert!(lines[1].contains("mate in 17 plies"), "{lines:?}");
}

#[test]
fn a_line_may_set_its_rules() {
    let text = format!(
        "{JCSA_PROBLEM} ; 39 ; RuleSet=jcsa ; CounterStrikeRecapture=false\n{JCSA_PROBLEM} ; 39\n"
    );
    let lines = solve_file("rules.epd", &text, &["--nodes", "1000000", "--hash", "256"]);
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(
        lines[0].starts_with(
            "problem 1 (line 1, RuleSet=jcsa, CounterStrikeRecapture=false): mate in 39 plies"
        ),
        "{lines:?}"
    );
    assert!(
        lines[1].starts_with("problem 2 (line 2): timeout"),
        "{lines:?}"
    );
}

/// A line's answer without its times, which differ from run to run.
fn without_times(line: &str) -> String {
    let (answer, figures) = line.split_once(" | ").unwrap_or((line, ""));
    let nodes = figures.rsplit(", ").next().unwrap_or("");
    format!("{answer} | {nodes}")
}

#[test]
fn threads_solve_problems_at_once_and_answer_in_the_files_order() {
    // The first problem runs to the node limit (a timeout under lishogi's rules), so the
    // quick ones after it finish first on the other threads and must wait for it.
    let quick: Vec<&str> = include_str!("../positions/tsume-chu-long.epd")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .take(5)
        .collect();
    let text = format!(
        "{JCSA_PROBLEM} ; 39\n{TWO_ROYALS} ; 17\n{}\n",
        quick.join("\n")
    );
    let limits = ["--nodes", "200000", "--hash", "64"];
    let one = solve_file("threads.epd", &text, &limits);
    let three = solve_file(
        "threads.epd",
        &text,
        &[&limits[..], &["--threads", "3"]].concat(),
    );
    assert_eq!(one.len(), 7, "{one:?}");
    assert!(one[0].starts_with("problem 1 (line 1): timeout"), "{one:?}");
    let one: Vec<String> = one.iter().map(|l| without_times(l)).collect();
    let three: Vec<String> = three.iter().map(|l| without_times(l)).collect();
    assert_eq!(one, three);
}
