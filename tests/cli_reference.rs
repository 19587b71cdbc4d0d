//! docs/cli.md against the binary's own help: every subcommand `shishi --help` lists has a
//! synopsis in docs/cli.md's first code block, and every option its `--help` lists is in one of
//! its synopses (an option added without its documentation fails here).

use std::process::Command;

fn help(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_shishi"))
        .args(args)
        .output()
        .expect("binary runs");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The subcommands `shishi --help` lists.
fn subcommands() -> Vec<String> {
    help(&["--help"])
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|&name| name != "help")
        .map(str::to_string)
        .collect()
}

/// The long options a subcommand's help lists, `--help` and `--version` aside.
fn options(sub: &str) -> Vec<String> {
    help(&[sub, "--help"])
        .lines()
        .filter_map(|l| {
            let l = l.trim_start();
            let long = l.strip_prefix("-").and_then(|_| l.split("--").nth(1))?;
            let name = long.split([' ', '=', ',', '<']).next()?;
            Some(format!("--{name}"))
        })
        .filter(|o| o != "--help" && o != "--version")
        .collect()
}

/// Each synopsis in docs/cli.md's first code block, by subcommand, continuation lines joined.
fn synopses() -> Vec<(String, String)> {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/cli.md")).unwrap();
    let block = text
        .split("```sh\n")
        .nth(1)
        .unwrap()
        .split("```")
        .next()
        .unwrap();
    let mut out: Vec<(String, String)> = Vec::new();
    for line in block.lines() {
        match line.strip_prefix("shishi ") {
            Some(rest) => {
                let sub = rest.split_whitespace().next().unwrap_or("").to_string();
                out.push((sub, line.to_string()));
            }
            None => {
                if let Some(last) = out.last_mut() {
                    last.1.push(' ');
                    last.1.push_str(line);
                }
            }
        }
    }
    out
}

#[test]
fn every_subcommand_and_option_of_the_help_is_in_docs_cli_md() {
    let synopses = synopses();
    let subs = subcommands();
    assert!(subs.len() >= 12, "{subs:?}");
    let mut missing = Vec::new();
    for sub in &subs {
        // A subcommand may have several synopses (convert: game records, training data).
        let lines: Vec<&str> = synopses
            .iter()
            .filter(|(s, _)| s == sub)
            .map(|(_, l)| l.as_str())
            .collect();
        if lines.is_empty() {
            missing.push(format!("shishi {sub}: no synopsis"));
            continue;
        }
        let line = lines.join(" ");
        for option in options(sub) {
            let present = line
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
                .any(|word| word == option);
            if !present {
                missing.push(format!("shishi {sub}: {option}"));
            }
        }
    }
    assert!(missing.is_empty(), "docs/cli.md lacks: {missing:#?}");
}
