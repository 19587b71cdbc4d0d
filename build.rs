//! Records the commit the binary is built from, for `shishi --version`: git's short hash, with
//! `-modified` when the files built into it (`SOURCES`) differ from that commit, and `unknown`
//! outside a git checkout (a crates.io package). A release artifact names the source it came
//! from; a match log or PGN rewritten in `results/` does not make a binary "modified".

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// What the binary is built from.
const SOURCES: [&str; 8] = [
    "build.rs",
    "Cargo.toml",
    "Cargo.lock",
    ".cargo",
    "src",
    "core",
    "nets",
    "positions/bench.epd",
];

fn main() {
    let commit = git(&["rev-parse", "--short=10", "HEAD"]);
    let mut status = vec!["status", "--porcelain", "--untracked-files=no", "--"];
    status.extend(SOURCES);
    let modified = git(&status).map(|s| !s.is_empty());
    let text = match (commit, modified) {
        (Some(commit), Some(true)) => format!("{commit}-modified"),
        (Some(commit), _) => commit,
        (None, _) => "unknown".to_string(),
    };
    println!("cargo:rustc-env=SHISHI_COMMIT={text}");
    // Run again when the commit moves or the files built in change.
    for path in SOURCES {
        println!("cargo:rerun-if-changed={path}");
    }
    if let Some(git_dir) = git(&["rev-parse", "--git-dir"]) {
        println!("cargo:rerun-if-changed={git_dir}/HEAD");
        println!("cargo:rerun-if-changed={git_dir}/index");
        if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
            println!("cargo:rerun-if-changed={git_dir}/{branch}");
        }
    }
}
