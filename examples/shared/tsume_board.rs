//! The board the tsume composers (`make_long_tsume`, `make_longer_tsume`,
//! `make_longest_tsume`) fill, and its SFEN.

/// The board, indexed `[rank][file]` with rank 0 = a and file 1..=12 (index 0 unused).
pub(crate) type Board = [[Option<&'static str>; 13]; 12];

/// The board as a Chu SFEN with sente to move.
pub(crate) fn sfen(b: &Board) -> String {
    let ranks: Vec<String> = b
        .iter()
        .map(|row| {
            let mut s = String::new();
            let mut empty = 0;
            for file in (1..=12).rev() {
                match row[file] {
                    Some(p) => {
                        if empty > 0 {
                            s += &empty.to_string();
                            empty = 0;
                        }
                        s += p;
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s += &empty.to_string();
            }
            s
        })
        .collect();
    format!("{} b - 1", ranks.join("/"))
}
