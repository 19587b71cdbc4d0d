//! The evaluation graph as an SVG image: sente's winning chances after every ply, the area above
//! the middle line sente's, with a mark on each judged move, as lishogi's analysis board draws
//! it. One polyline point per ply (`data-plies` gives the count), so tools can read it back.

use super::chances::winning_chances;
use super::report::GameAnalysis;
use crate::record::Glyph;
use std::fmt::Write as _;

const WIDTH: f64 = 800.0;
const HEIGHT: f64 = 240.0;
const MARGIN: f64 = 10.0;

fn colour(glyph: Glyph) -> &'static str {
    match glyph {
        Glyph::Inaccuracy => "#56b4e9",
        Glyph::Mistake => "#e69f00",
        Glyph::Blunder => "#db3031",
    }
}

/// The graph of `analysis`, `title` in its `<title>`.
pub fn svg(analysis: &GameAnalysis, title: &str) -> String {
    let n = analysis.plies.len().max(1);
    let x = |ply: usize| MARGIN + (WIDTH - 2.0 * MARGIN) * (ply as f64 - 0.5) / n as f64;
    let y = |chances: f64| HEIGHT / 2.0 - (HEIGHT / 2.0 - MARGIN) * chances;
    let points: Vec<(f64, f64)> = analysis
        .plies
        .iter()
        .map(|p| (x(p.ply), y(winning_chances(p.eval))))
        .collect();
    let mut out = String::new();
    let _ = writeln!(
        out,
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" data-plies="{}">"##,
        analysis.plies.len()
    );
    let _ = writeln!(out, "<title>{}</title>", escape(title));
    let _ = writeln!(
        out,
        r##"<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="#2b2b2b"/>"##
    );
    if let (Some(first), Some(last)) = (points.first(), points.last()) {
        let mut area = format!("M {:.1} {:.1}", first.0, HEIGHT / 2.0);
        for (px, py) in &points {
            let _ = write!(area, " L {px:.1} {py:.1}");
        }
        let _ = write!(area, " L {:.1} {:.1} Z", last.0, HEIGHT / 2.0);
        let _ = writeln!(
            out,
            r##"<path d="{area}" fill="#e8e8e8" fill-opacity="0.35"/>"##
        );
    }
    let _ = writeln!(
        out,
        r##"<line x1="0" y1="{mid}" x2="{WIDTH}" y2="{mid}" stroke="#888" stroke-dasharray="4 4"/>"##,
        mid = HEIGHT / 2.0
    );
    let joined: Vec<String> = points
        .iter()
        .map(|(px, py)| format!("{px:.1},{py:.1}"))
        .collect();
    let _ = writeln!(
        out,
        r##"<polyline class="eval" points="{}" fill="none" stroke="#d59020" stroke-width="1.5"/>"##,
        joined.join(" ")
    );
    for (report, (px, py)) in analysis.plies.iter().zip(&points) {
        if let Some(glyph) = report.judgment {
            let _ = writeln!(
                out,
                r##"<circle class="{}" data-ply="{}" cx="{px:.1}" cy="{py:.1}" r="3.5" fill="{}"><title>{} {} ({})</title></circle>"##,
                glyph.word(),
                report.ply,
                colour(glyph),
                report.ply,
                report.played,
                glyph.word()
            );
        }
    }
    out.push_str("</svg>\n");
    out
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
