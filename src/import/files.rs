//! Writing an imported ruleset as game files, in memory. Pure.
//!
//! `rules/<section>/_section.md` holds a section's heading, order and
//! preamble; `rules/<section>/<id>.md` one rule. The rule the detected
//! preset belongs to declares it in its `[params]`, as the bundled game's
//! voting rule does, so the imported game tallies as that ruleset did. Text is escaped for
//! Markdown and for the template engine line by line, then the game's
//! terms are written as templates where safe (see `terms`). Prose lines
//! become paragraphs of their own and list items Markdown lists, so the
//! site shows the lines the dump had.

use serde::Serialize;

use super::{Block, ChosenPreset, Imported, ImportedRule, ImportedSection, Marker, escape, terms};
use crate::gamestate::Terms;
use crate::ruleset::RuleId;
use crate::source::SourceFile;

#[derive(Serialize)]
struct RuleFront<'a> {
    id: &'a str,
    title: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    parent: Option<&'a str>,
    order: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    params: Option<ParamsFront<'a>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    terms: Vec<TermFront<'a>>,
}

#[derive(Serialize)]
struct ParamsFront<'a> {
    preset: &'a str,
}

#[derive(Serialize)]
struct TermFront<'a> {
    term: &'a str,
    definition: String,
}

#[derive(Serialize)]
struct SectionFront {
    title: String,
    order: i64,
}

/// One line of text as it is written into a rule file.
fn text_line(text: &str, terms: &Terms) -> String {
    terms::template(&escape::template(&escape::markdown(text)), terms)
}

/// A title as written into front matter (a template, but not Markdown).
fn title(text: &str, terms: &Terms) -> String {
    terms::template(&escape::template(text), terms)
}

/// The Markdown of a body: paragraphs apart, consecutive items one list.
pub(crate) fn markdown(blocks: &[Block], terms: &Terms) -> String {
    let mut out = String::new();
    // Content columns of the open list items, outermost first.
    let mut columns: Vec<usize> = Vec::new();
    let mut previous_item = false;
    for block in blocks {
        match block {
            Block::Text(text) => {
                if !out.is_empty() {
                    out.push('\n');
                }
                out.push_str(&text_line(text, terms));
                out.push('\n');
                columns.clear();
                previous_item = false;
            }
            Block::Item {
                marker,
                level,
                text,
            } => {
                if !out.is_empty() && !previous_item {
                    out.push('\n');
                }
                columns.truncate(level.saturating_sub(1).min(columns.len()));
                let indent = columns.last().copied().unwrap_or(0);
                let marker = match marker {
                    Marker::Number(n) => format!("{n}. "),
                    Marker::Bullet | Marker::Dash => "- ".to_string(),
                };
                out.push_str(&" ".repeat(indent));
                out.push_str(&marker);
                out.push_str(&text_line(text, terms));
                out.push('\n');
                columns.push(indent + marker.len());
                previous_item = true;
            }
        }
    }
    out
}

fn with_front(front: &str, body: &str) -> String {
    format!("+++\n{front}+++\n{body}")
}

fn rule_file(rule: &ImportedRule, terms: &Terms, preset: Option<&ChosenPreset>) -> SourceFile {
    let front = RuleFront {
        params: preset
            .filter(|p| p.rule == rule.id)
            .map(|p| ParamsFront { preset: &p.name }),
        id: rule.id.as_str(),
        title: title(&rule.title, terms),
        parent: rule.parent.as_ref().map(RuleId::as_str),
        order: rule.order,
        terms: rule
            .terms
            .iter()
            .map(|(term, definition)| TermFront {
                term,
                definition: text_line(definition, terms),
            })
            .collect(),
    };
    let mut front = crate::source::front_matter(&front).unwrap_or_default();
    if let Some(doubt) = &rule.doubt {
        front.insert_str(0, &doubt_comment(doubt));
    }
    SourceFile::new(
        format!("rules/{}/{}.md", rule.section, rule.id),
        with_front(&front, &markdown(&rule.body, terms)),
    )
}

/// The front-matter comment that marks a rule whose number the import
/// could not settle, so the group checks it against the wiki.
fn doubt_comment(doubt: &str) -> String {
    let doubt = doubt.replace(['\n', '\r'], " ");
    format!(
        "# imported in doubt: {doubt}. Check its number against the wiki, then delete this line.\n"
    )
}

fn section_file(section: &ImportedSection, terms: &Terms) -> SourceFile {
    let front = SectionFront {
        title: escape::template(&section.title),
        order: section.order,
    };
    let front = crate::source::front_matter(&front).unwrap_or_default();
    SourceFile::new(
        format!("rules/{}/_section.md", section.kind),
        with_front(&front, &markdown(&section.intro, terms)),
    )
}

/// The files of `rules/`: each section's `_section.md`, then its rules.
pub fn rule_files(imported: &Imported) -> Vec<SourceFile> {
    let mut files = Vec::new();
    for section in &imported.sections {
        files.push(section_file(section, &imported.terms));
        files.extend(
            imported
                .rules
                .iter()
                .filter(|r| r.section == section.kind)
                .map(|r| rule_file(r, &imported.terms, imported.preset.as_ref())),
        );
    }
    files
}

#[derive(Serialize)]
struct GameToml<'a> {
    game: GameName<'a>,
    terms: &'a Terms,
    dynasty: DynastyToml,
}

#[derive(Serialize)]
struct GameName<'a> {
    name: &'a str,
}

#[derive(Serialize)]
struct DynastyToml {
    number: u32,
    emperor: &'static str,
    phase: &'static str,
}

/// `state/game.toml` (the name and the detected terms, a first dynasty
/// with no emperor yet) and an empty `state/roster.toml`.
pub fn state_files(imported: &Imported) -> Vec<SourceFile> {
    let game = GameToml {
        game: GameName {
            name: &imported.name,
        },
        terms: &imported.terms,
        dynasty: DynastyToml {
            number: 1,
            emperor: "",
            phase: "playing",
        },
    };
    let game = toml::to_string(&game).unwrap_or_default();
    vec![
        SourceFile::new(
            "state/game.toml",
            format!(
                "# Imported by `gitnomic import ruleset`. The rules say {{{{ player }}}} and\n# {{{{ emperor }}}}: renaming a term is a change to [terms] below.\n\n{game}"
            ),
        ),
        SourceFile::new(
            "state/roster.toml",
            "# The players: add one [[players]] table (name, login) per player.\nplayers = []\n",
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terms() -> Terms {
        Terms {
            player: "Lamplighter".into(),
            players: "Lamplighters".into(),
            emperor: "Lantern".into(),
            emperors: "Lanterns".into(),
        }
    }

    fn item(level: usize, marker: Marker, text: &str) -> Block {
        Block::Item {
            marker,
            level,
            text: text.into(),
        }
    }

    #[test]
    fn bodies_become_paragraphs_and_lists() {
        let blocks = [
            Block::Text("Each Lamplighter may:".into()),
            item(1, Marker::Bullet, "light *one* lamp"),
            item(2, Marker::Bullet, "or two"),
            item(1, Marker::Dash, "- rest"),
            Block::Text("{{ done }}".into()),
            item(1, Marker::Number(3), "third"),
        ];
        assert_eq!(
            markdown(&blocks, &terms()),
            "Each {{ player }} may:\n\n- light \\*one\\* lamp\n  - or two\n- \\- rest\n\n{{ \"{\" }}{ done }}\n\n3. third\n"
        );
    }

    #[test]
    fn state_files_parse_as_state() {
        let imported = Imported {
            name: "Ruleset \"9\"".into(),
            name_in_dump: true,
            terms: terms(),
            sections: Vec::new(),
            rules: Vec::new(),
            warnings: Vec::new(),
            source: Vec::new(),
            preset: None,
            preset_note: String::new(),
            questions: Vec::new(),
        };
        let files = state_files(&imported);
        let (state, problems) = crate::gamestate::parse(&files, &|_| false);
        assert!(problems.is_empty(), "{problems}");
        let state = state.unwrap();
        assert_eq!(state.terms, terms());
        assert!(state.players.is_empty());
        assert!(state.dynasty.emperor.is_none());
    }
}
