//! Bad input on the command line, as a new user types it: one line on stderr naming what is
//! wrong, exit code 2 (3 for a match engine that does not start), never a panic.

mod common;

const CHU_START: &str = "lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1";

use common::run_shishi as shishi;

/// Asserts a one-line error mentioning `needle` and exit code 2.
fn rejects(args: &[&str], needle: &str) {
    rejects_with(2, args, needle);
}

/// Asserts a one-line error mentioning `needle` and exit code `want`.
fn rejects_with(want: i32, args: &[&str], needle: &str) {
    let (code, stdout, stderr) = shishi(args);
    assert_eq!(code, want, "{args:?}: stdout {stdout} stderr {stderr}");
    assert!(!stderr.contains("panicked"), "{args:?} panicked: {stderr}");
    assert_eq!(stderr.trim().lines().count(), 1, "{args:?}: {stderr}");
    assert!(
        stderr.contains(needle),
        "{args:?}: expected '{needle}' in {stderr}"
    );
}

#[test]
fn empty_sfen() {
    rejects(&["perft", "--depth", "1", "--sfen", ""], "empty SFEN");
}

#[test]
fn startpos_typo() {
    rejects(
        &["perft", "--depth", "1", "--sfen", "startpso"],
        "neither startpos nor a SFEN",
    );
}

#[test]
fn thirteen_files_in_a_rank() {
    let sfen = CHU_START.replacen("lfcsgekgscfl", "lfcsgekgscfll", 1);
    rejects(
        &["perft", "--depth", "1", "--sfen", &sfen],
        "rank a is too long",
    );
}

#[test]
fn unknown_piece_letter() {
    let sfen = CHU_START.replacen("3i4i3", "3i4z3", 1);
    rejects(
        &["perft", "--depth", "1", "--sfen", &sfen],
        "unknown piece 'z'",
    );
}

#[test]
fn heian_letter_on_a_chu_board_and_bad_side() {
    let sfen = CHU_START.replacen(" b ", " x ", 1);
    rejects(&["perft", "--depth", "1", "--sfen", &sfen], "side to move");
    rejects(
        &[
            "perft",
            "--variant",
            "heian",
            "--depth",
            "1",
            "--sfen",
            CHU_START,
        ],
        "expected 9",
    );
}

#[test]
fn move_off_the_board() {
    rejects(
        &["perft", "--depth", "1", "--moves", "13a12a"],
        "unparsable move",
    );
    rejects(
        &["perft", "--depth", "1", "--moves", "7m7l"],
        "unparsable move",
    );
}

#[test]
fn illegal_move_with_reason() {
    rejects(
        &["perft", "--depth", "1", "--moves", "7i7g"],
        "not a legal move of the pawn on 7i",
    );
    rejects(
        &["perft", "--depth", "1", "--moves", "7l7k"],
        "7k holds your own piece",
    );
    rejects(&["perft", "--depth", "1", "--moves", "6c6d"], "gote's");
}

#[test]
fn unknown_variant_rules_and_threads() {
    rejects(
        &["perft", "--depth", "1", "--variant", "chess"],
        "unknown variant",
    );
    rejects(
        &["perft", "--depth", "1", "--rules", "fide"],
        "unknown rule set",
    );
    rejects(&["perft", "--depth", "1", "--threads", "0"], "--threads");
}

#[test]
fn good_input_counts() {
    let (code, stdout, _) = shishi(&["perft", "--depth", "2", "--sfen", "startpos"]);
    assert_eq!(code, 0);
    assert_eq!(stdout.trim().lines().last(), Some("Nodes searched: 1296"));
    let (code, stdout, _) = shishi(&["perft", "--depth", "1", "--divide", "--variant", "heian"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = stdout.trim().lines().collect();
    assert_eq!(lines.len(), 27, "26 root moves and the total: {stdout}");
    assert_eq!(lines[26], "Nodes searched: 26");
}

#[test]
fn match_engine_that_does_not_start() {
    let shishi = env!("CARGO_BIN_EXE_shishi");
    // Exit code 3, not 2: on another machine or later the engine may start (the cluster
    // driver retries it).
    rejects_with(
        3,
        &[
            "match",
            "--engine",
            shishi,
            "--engine",
            "/nonexistent/engine",
            "--games",
            "2",
        ],
        "engine '/nonexistent/engine' did not start",
    );
}

/// `rejects` for `shishi match` between two shishis with `extra` arguments.
fn rejects_match(extra: &[&str], needle: &str) {
    let shishi = env!("CARGO_BIN_EXE_shishi");
    let mut args = vec!["match", "--engine", shishi, "--engine", shishi];
    args.extend_from_slice(extra);
    rejects(&args, needle);
}

#[test]
fn match_arguments_name_the_bad_value() {
    rejects_match(&["--tc", "10+fast"], "increment 'fast'");
    rejects_match(&["--tc", "0"], "time control '0' gives no time");
    rejects_match(
        &["--sprt", "elo0=0,elo2=5"],
        "unknown SPRT parameter 'elo2'",
    );
    rejects_match(
        &["--sprt", "alpha=0.9"],
        "alpha must be between 0 and 0.5, not 0.9",
    );
    let dir = std::env::temp_dir().join(format!("shishi-book-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let book = dir.join("book.epd");
    std::fs::write(&book, "startpos\nstartpos ; moves 7g7f 5a5z\n").unwrap();
    let book = book.to_str().unwrap();
    rejects_match(
        &["--variant", "heian", "--openings", book],
        "line 2: opening move 2",
    );
    rejects_match(&["--variant", "heian", "--openings", book], "5a5z");
}

#[test]
fn bench_of_one_position_rejects_an_unknown_variant_or_sfen() {
    rejects(&["bench", "--variant", "chess"], "unknown variant 'chess'");
    rejects(
        &["bench", "--sfen", "startpso"],
        "neither startpos nor a SFEN",
    );
}

#[test]
fn bench_refuses_an_unknown_or_out_of_range_search_parameter() {
    rejects(
        &["bench", "--option", "Tune_Bogus=1"],
        "unknown option 'Tune_Bogus'",
    );
    rejects(
        &["bench", "--option", "Tune_LmrDivisor=0"],
        "option Tune_LmrDivisor must be between 100 and 20000, not 0",
    );
    rejects(&["bench", "--option", "Threads=2"], "Tune_NAME=VALUE");
}

#[test]
fn bench_of_one_position_searches_only_it_and_gives_the_same_nodes_twice() {
    let run = || {
        let (code, stdout, stderr) = shishi(&["bench", "--sfen", CHU_START, "--depth", "4"]);
        assert_eq!(code, 0, "stderr {stderr}");
        let lines: Vec<&str> = stdout.lines().collect();
        assert_eq!(lines.len(), 3, "{stdout}");
        assert!(
            ["kernels avx2", "kernels portable"].contains(&lines[0]),
            "{stdout}"
        );
        assert!(
            lines[1].starts_with("position  1 chushogi  depth 4 bestmove"),
            "{stdout}"
        );
        lines[2].split(' ').next().unwrap().to_string()
    };
    let nodes = run();
    assert!(nodes.parse::<u64>().unwrap() > 0);
    assert_eq!(nodes, run());
}

#[test]
fn mate_without_a_problem_or_with_bad_ones() {
    rejects(&["mate"], "give --sfen or --file");
    rejects(
        &["mate", "--file", "/nonexistent/problems.epd"],
        "cannot read",
    );
    rejects(&["mate", "--sfen", "12/12 b - 1"], "bad SFEN");
    rejects(
        &["mate", "--sfen", CHU_START, "--threads", "0"],
        "--threads 0 is out of range",
    );
    let dir = std::env::temp_dir().join(format!("shishi-mate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bad.epd");
    let bad_file = |text: &str, needle: &str| {
        std::fs::write(&file, text).unwrap();
        rejects(&["mate", "--file", file.to_str().unwrap()], needle);
    };
    let bad_fields = [
        ("three", "line 1: 'three' is neither the expected length"),
        (
            "5 ; 7",
            "line 1: '7' is neither the expected length (a number, once)",
        ),
        (
            "5 ; Hash=64",
            "line 1: 'Hash' is not a rule option nor TsumeRoyals",
        ),
        ("RuleSet=fide", "line 1: option RuleSet is one of"),
        ("TsumeRoyals=some", "line 1: option TsumeRoyals"),
    ];
    for (fields, needle) in bad_fields {
        bad_file(&format!("{CHU_START} ; {fields}\n"), needle);
    }
    bad_file(&format!("\n{CHU_START} ; three\n"), "line 2: 'three'");
    bad_file("# only a comment\n", "holds no problem");
    for (option, needle) in [
        (
            "Threads=2",
            "--option: 'Threads' is not a rule option nor TsumeRoyals",
        ),
        ("OkazakiRule", "--option takes NAME=VALUE"),
        (
            "OkazakiRule=3",
            "--option: option OkazakiRule takes true or false",
        ),
    ] {
        rejects(&["mate", "--sfen", CHU_START, "--option", option], needle);
    }
    rejects(&["mate", "--sfen", CHU_START, "--hash", "0"], "--hash");
    rejects(
        &["mate", "--sfen", CHU_START, "--max-plies", "0"],
        "--max-plies 0 is out of range",
    );
    rejects(
        &["mate", "--sfen", CHU_START, "--max-plies", "5000"],
        "--max-plies 5000 is out of range",
    );
}

#[test]
fn train_output_buckets_out_of_range() {
    for buckets in ["0", "65"] {
        rejects(
            &[
                "train",
                "--data",
                "x.txt",
                "--family",
                "heian",
                "--out",
                "x.nnue",
                "--buckets",
                buckets,
            ],
            "--buckets must be 1 to 64",
        );
    }
}

#[test]
fn max_moves_zero_is_refused() {
    rejects(
        &[
            "match",
            "--engine",
            "x",
            "--engine",
            "y",
            "--max-moves",
            "0",
        ],
        "--max-moves 0",
    );
}

#[test]
fn a_device_given_as_a_file_is_refused_at_once() {
    // /dev/zero never ends: read whole, it took the memory.
    rejects(
        &[
            "match",
            "--engine",
            "x",
            "--engine",
            "y",
            "--openings",
            "/dev/zero",
        ],
        "not a regular file",
    );
    rejects(&["mate", "--file", "/dev/zero"], "not a regular file");
    rejects(
        &[
            "convert",
            "--input",
            "/dev/zero",
            "--output",
            "/tmp/shishi-never-written.txt",
        ],
        "not a regular file",
    );
}

#[test]
fn version_names_the_commit_it_was_built_from() {
    let (code, stdout, _) = shishi(&["--version"]);
    assert_eq!(code, 0);
    let want = format!("shishi {} (commit ", env!("CARGO_PKG_VERSION"));
    let commit = stdout
        .trim()
        .strip_prefix(&want)
        .and_then(|rest| rest.strip_suffix(')'))
        .unwrap_or_else(|| panic!("{stdout}"));
    let head = std::process::Command::new("git")
        .args(["rev-parse", "--short=10", "HEAD"])
        .output()
        .ok()
        .filter(|out| out.status.success())
        .map(|out| String::from_utf8_lossy(&out.stdout).trim().to_string());
    match head {
        // The test runs from the checkout the binary was built from.
        Some(head) => assert!(
            commit == head || commit == format!("{head}-modified"),
            "{commit} vs HEAD {head}"
        ),
        None => assert_eq!(commit, "unknown"),
    }
}

#[test]
fn an_output_file_that_cannot_be_written_is_refused_before_the_work() {
    let missing = std::env::temp_dir()
        .join(format!("shishi-no-such-folder-{}", std::process::id()))
        .join("out");
    let out = |ext: &str| missing.with_extension(ext).to_str().unwrap().to_string();
    // The data files do not exist either: the output is checked first.
    let (txt, nnue) = (out("txt"), out("nnue"));
    rejects(
        &[
            "tune", "--data", "x.txt", "--family", "heian", "--out", &txt,
        ],
        "cannot be written",
    );
    rejects(
        &[
            "train", "--data", "x.txt", "--family", "heian", "--out", &nnue,
        ],
        "cannot be written",
    );
    let folder = std::env::temp_dir();
    rejects(
        &[
            "tune",
            "--data",
            "x.txt",
            "--family",
            "heian",
            "--out",
            folder.to_str().unwrap(),
        ],
        "a folder, not a file",
    );
}

/// A reader that stops early (`shishi mate --file F | head -1`) ends a printing command
/// quietly, as it ends a C program: no panic about a failed write reaches the user. Linux's
/// SIGPIPE; the binary cargo built, whatever `SHISHI_ENGINE_COMMAND` says. (Windows, which has
/// no SIGPIPE, is checked under Wine by scripts/test-windows.)
#[cfg(target_os = "linux")]
#[test]
fn a_closed_output_ends_a_printing_command_quietly() {
    use std::io::{BufRead, BufReader, Read};
    use std::os::unix::process::ExitStatusExt;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_shishi"))
        .args([
            "mate",
            "--file",
            "positions/tsume-chu.epd",
            "--nodes",
            "20000",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.starts_with("problem 1 "), "{first}");
    // The reader is gone (dropped above) while the other problems are still solved: the next
    // line finds no one.
    let status = child.wait().unwrap();
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(status.signal(), Some(13), "{status:?} {stderr}");
}

/// Runs `shishi ARGS` with its output on Linux's `/dev/full` (a disk that is always full) and
/// checks that it ends with the error naming the reason, last on stderr, and status 1, not a
/// panic; returns stderr.
#[cfg(target_os = "linux")]
fn run_onto_a_full_disk(args: &[&str]) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_shishi"))
        .args(args)
        .stdout(std::fs::File::create("/dev/full").unwrap())
        .stderr(std::process::Stdio::piped())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(
        stderr
            .trim_end()
            .ends_with("error: cannot write the output: No space left on device (os error 28)"),
        "{stderr}"
    );
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    stderr
}

/// Output that cannot be written for another reason than a closed pipe (a full disk) is an
/// error naming the reason, with status 1, not a panic.
#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_is_an_error_not_a_panic() {
    let stderr = run_onto_a_full_disk(&["perft", "--variant", "heian", "--depth", "2", "--divide"]);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

/// `match` writes its table to its own output after the games: a full disk there is the same
/// error, not a panic, while its engines' pipes stay its own business.
#[cfg(target_os = "linux")]
#[test]
fn a_match_whose_table_cannot_be_written_says_so() {
    let engine = env!("CARGO_BIN_EXE_shishi");
    let stderr = run_onto_a_full_disk(&[
        "match",
        "--engine",
        engine,
        "--engine",
        engine,
        "--variant",
        "heian",
        "--games",
        "2",
        "--tc",
        "0.3+0.01",
        "--max-moves",
        "20",
    ]);
    assert!(stderr.contains("2 games"), "{stderr}");
}
