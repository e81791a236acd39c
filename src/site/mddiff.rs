//! An amendment shown rendered: the old and new Markdown split into blocks
//! (paragraphs, list items, headings, code, tables), the blocks aligned as
//! the line diff aligns lines, and a replaced block's rendered text
//! compared word by word. A reader sees formatted text with the changed
//! words marked, and a list item's own "- " is a bullet, not a deletion.
//! Raw HTML in rule text is shown as text, as everywhere on the site; ids
//! (heading attributes, footnotes) are dropped, since the old and new
//! versions of a block stand on one page. References to rules ("Rule
//! 2.5", a quoted title that names one rule) are linked as on the ruleset
//! pages ([`super::xref`]), the removed text's to the ruleset before.

use pulldown_cmark::{CowStr, Event, Tag, TagEnd, TextMergeStream};

use super::escape::escape;
use super::xref::{self, Targets};
use crate::ruleset::textdiff::{self, Step};

/// Where one side of a diff links its references: `{prefix}#{id}` for a
/// rule of `targets`.
#[derive(Clone, Copy)]
pub(crate) struct Links<'a> {
    pub(crate) targets: &'a Targets,
    pub(crate) prefix: &'a str,
}

/// Where a diff's references link: removed blocks to the ruleset before
/// the change, added and unchanged ones to the ruleset after.
#[derive(Clone, Copy)]
pub(crate) struct Xrefs<'a> {
    pub(crate) before: Links<'a>,
    pub(crate) after: Links<'a>,
}

/// Unchanged blocks kept around each change.
const CONTEXT: usize = 1;

/// The innermost list item a block is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Item {
    ordered: bool,
    number: u64,
    /// How many lists deep.
    depth: usize,
    /// Whether the block is the item's first (the one with the bullet).
    first: bool,
}

/// One block of a text: where it sits and its own events.
struct Block<'t> {
    quotes: usize,
    item: Option<Item>,
    events: Vec<Event<'t>>,
    /// What blocks are compared by: where they sit and their source.
    key: String,
}

/// A span of inline events being gathered: a tight list item's text.
struct Leaf<'t> {
    events: Vec<Event<'t>>,
    span: (usize, usize),
    /// Open block tags (0 for a tight item's inline text).
    depth: usize,
}

/// The rendered diff of two Markdown texts: one `<div>` per block, of
/// class `same`, `del`, `add` or `fold`, changed words in `<ins>`/`<del>`;
/// empty when the texts render alike. With `xrefs`, references to rules
/// are links.
pub(crate) fn diff_html(old: &str, new: &str, xrefs: Option<Xrefs>) -> String {
    let (a, b) = (blocks(old), blocks(new));
    let keys = |v: &[Block]| v.iter().map(|b| b.key.clone()).collect::<Vec<_>>();
    let steps = textdiff::steps(&keys(&a), &keys(&b));
    let after = xrefs.map(|x| x.after);
    let mut rows: Vec<(&str, String)> = Vec::new();
    let mut i = 0;
    while i < steps.len() {
        if let Step::Same(x, _) = steps[i] {
            rows.push(("same", render(&a[x], &[], "", after)));
            i += 1;
            continue;
        }
        let (mut dels, mut adds) = (Vec::new(), Vec::new());
        while let Some(step) = steps.get(i) {
            match *step {
                Step::Del(x) => dels.push(&a[x]),
                Step::Add(y) => adds.push(&b[y]),
                Step::Same(..) => break,
            }
            i += 1;
        }
        rows.extend(replaced(&dels, &adds, xrefs));
    }
    fold(&rows)
}

/// A run of removed and added blocks: the k-th removed paired with the
/// k-th added and compared by word; the rest marked whole.
fn replaced<'r>(dels: &[&Block], adds: &[&Block], xrefs: Option<Xrefs>) -> Vec<(&'r str, String)> {
    let (before, after) = (xrefs.map(|x| x.before), xrefs.map(|x| x.after));
    let (mut old, mut new) = (Vec::new(), Vec::new());
    for (k, was) in dels.iter().enumerate() {
        let was_tokens = tokens(&was.events);
        let Some(now) = adds.get(k) else {
            old.push((
                "del",
                render(was, &vec![true; was_tokens.len()], "del", before),
            ));
            continue;
        };
        let now_tokens = tokens(&now.events);
        let blank = |t: &Token| matches!(t, Token::Word(w) if w.trim().is_empty());
        let (gone, came) = textdiff::changed(&was_tokens, &now_tokens, blank);
        old.push(("del", render(was, &gone, "del", before)));
        new.push(("add", render(now, &came, "ins", after)));
    }
    for now in adds.iter().skip(dels.len()) {
        let all = vec![true; tokens(&now.events).len()];
        new.push(("add", render(now, &all, "ins", after)));
    }
    old.extend(new);
    old
}

/// Whether a tag is inline (inside a paragraph) rather than a block.
fn inline(tag: &Tag) -> bool {
    matches!(
        tag,
        Tag::Emphasis
            | Tag::Strong
            | Tag::Strikethrough
            | Tag::Superscript
            | Tag::Subscript
            | Tag::Link { .. }
            | Tag::Image { .. }
    )
}

fn inline_end(tag: &TagEnd) -> bool {
    matches!(
        tag,
        TagEnd::Emphasis
            | TagEnd::Strong
            | TagEnd::Strikethrough
            | TagEnd::Superscript
            | TagEnd::Subscript
            | TagEnd::Link
            | TagEnd::Image
    )
}

/// The text's blocks in order: each leaf block (paragraph, heading, code,
/// table, a tight list item's text) with the quotes and list item it is in.
fn blocks(text: &str) -> Vec<Block<'_>> {
    let mut out = Vec::new();
    let (mut quotes, mut lists, mut items) =
        (0usize, Vec::<(bool, u64)>::new(), Vec::<Item>::new());
    let mut leaf: Option<Leaf> = None;
    macro_rules! flush {
        () => {
            finish(text, &mut out, &mut leaf, quotes, &mut items)
        };
    }
    for (event, range) in crate::markdown::parser(text).into_offset_iter() {
        if let Some(open) = leaf.as_mut().filter(|l| l.depth > 0) {
            if open.extend(event, range) {
                flush!();
            }
            continue;
        }
        match event {
            Event::Start(ref tag) if inline(tag) => gather(&mut leaf, event, range),
            Event::End(ref tag) if inline_end(tag) => gather(&mut leaf, event, range),
            Event::Start(Tag::List(start)) => {
                flush!();
                lists.push((start.is_some(), start.unwrap_or(1)));
            }
            Event::Start(Tag::Item) => {
                flush!();
                items.push(next_item(&mut lists));
            }
            Event::Start(Tag::BlockQuote(_)) => {
                flush!();
                quotes += 1;
            }
            Event::End(end @ (TagEnd::List(_) | TagEnd::Item | TagEnd::BlockQuote(_))) => {
                flush!();
                match end {
                    TagEnd::List(_) => drop(lists.pop()),
                    TagEnd::Item => drop(items.pop()),
                    _ => quotes = quotes.saturating_sub(1),
                }
            }
            Event::Start(_) | Event::Rule => {
                flush!();
                let depth = usize::from(matches!(event, Event::Start(_)));
                leaf = Some(Leaf {
                    events: vec![event],
                    span: (range.start, range.end),
                    depth,
                });
                if depth == 0 {
                    flush!();
                }
            }
            other => gather(&mut leaf, other, range),
        }
    }
    flush!();
    out
}

impl<'t> Leaf<'t> {
    /// Adds an event to a block being gathered; whether it ended it.
    fn extend(&mut self, event: Event<'t>, range: std::ops::Range<usize>) -> bool {
        match &event {
            Event::Start(_) => self.depth += 1,
            Event::End(_) => self.depth -= 1,
            _ => {}
        }
        self.span.1 = self.span.1.max(range.end);
        self.events.push(event);
        self.depth == 0
    }
}

/// The item a list's next `Item` starts, numbered in its list.
fn next_item(lists: &mut [(bool, u64)]) -> Item {
    let depth = lists.len();
    let (ordered, number) = lists.last().copied().unwrap_or((false, 1));
    if let Some(list) = lists.last_mut() {
        list.1 += 1;
    }
    Item {
        ordered,
        number,
        depth,
        first: true,
    }
}

/// Ends the block being gathered, if any, as the next of `out`.
fn finish<'t>(
    text: &'t str,
    out: &mut Vec<Block<'t>>,
    leaf: &mut Option<Leaf<'t>>,
    quotes: usize,
    items: &mut [Item],
) {
    let Some(done) = leaf.take() else { return };
    let item = items.last().copied();
    if let Some(open) = items.last_mut() {
        open.first = false;
    }
    let source = text.get(done.span.0..done.span.1).unwrap_or_default();
    let place = item.map_or((false, 0), |i| (i.ordered, i.depth));
    out.push(Block {
        quotes,
        item,
        key: format!("{quotes} {place:?}\n{source}"),
        events: TextMergeStream::new(done.events.into_iter()).collect(),
    });
}

/// Adds an inline event to a tight list item's text.
fn gather<'t>(leaf: &mut Option<Leaf<'t>>, event: Event<'t>, range: std::ops::Range<usize>) {
    let open = leaf.get_or_insert_with(|| Leaf {
        events: Vec::new(),
        span: (range.start, range.end),
        depth: 0,
    });
    open.span = (open.span.0.min(range.start), open.span.1.max(range.end));
    open.events.push(event);
}

/// What a block's rendering is compared by: each word of its text, and
/// each piece of markup as a whole.
#[derive(Debug, PartialEq, Eq)]
enum Token<'e> {
    Word(&'e str),
    Mark(String),
}

/// The text of an event that shows as text (raw HTML included: it is
/// shown, not run).
fn shown<'e>(event: &'e Event) -> Option<&'e str> {
    match event {
        Event::Text(t) | Event::Html(t) | Event::InlineHtml(t) => Some(t),
        _ => None,
    }
}

fn tokens<'e>(events: &'e [Event]) -> Vec<Token<'e>> {
    let mut out = Vec::new();
    for event in events {
        if let Some(text) = shown(event) {
            out.extend(textdiff::tokens(text).into_iter().map(Token::Word));
        } else if let Event::Code(code) = event {
            out.push(Token::Mark("<code>".into()));
            out.extend(textdiff::tokens(code).into_iter().map(Token::Word));
            out.push(Token::Mark("</code>".into()));
        } else {
            out.push(Token::Mark(format!("{event:?}")));
        }
    }
    out
}

/// A block as HTML, the tokens flagged in `changed` (by [`tokens`] index)
/// wrapped in `<{mark}>`, inside its quotes and list item; references
/// linked by `links`.
fn render(block: &Block, changed: &[bool], mark: &str, links: Option<Links>) -> String {
    let mut marker = Marker {
        changed,
        mark,
        next: 0,
        links,
        in_link: 0,
    };
    let mut images = 0usize;
    let events = block.events.iter().map(|event| {
        match event {
            Event::Start(Tag::Image { .. }) => images += 1,
            Event::End(TagEnd::Image) => images = images.saturating_sub(1),
            // Alt text is an attribute: leave it as text.
            Event::Text(t) if images > 0 => {
                marker.next += textdiff::tokens(t).len();
                return Event::Text(t.clone());
            }
            _ => {}
        }
        marker.event(event)
    });
    let events = crate::markdown::safe_links(events);
    let mut body = String::new();
    pulldown_cmark::html::push_html(&mut body, events);
    wrap(block, body.trim_end())
}

/// Walks a block's events as [`tokens`] counts them, marking the flagged.
struct Marker<'m> {
    changed: &'m [bool],
    mark: &'m str,
    /// The index of the next token.
    next: usize,
    links: Option<Links<'m>>,
    /// How many links the walk is inside: their text is not linked again.
    in_link: usize,
}

impl<'m> Marker<'m> {
    /// The event as it is rendered in a diff: text with its changed words
    /// marked, raw HTML as text, no ids.
    fn event<'t>(&mut self, event: &Event<'t>) -> Event<'t> {
        if let Some(text) = shown(event) {
            return Event::InlineHtml(CowStr::from(self.text(text)));
        }
        match event {
            Event::Start(Tag::Link { .. }) => self.in_link += 1,
            Event::End(TagEnd::Link) => self.in_link = self.in_link.saturating_sub(1),
            _ => {}
        }
        let out = match event {
            Event::Code(code) => {
                self.next += 1;
                let inner = self.text(code);
                Event::InlineHtml(CowStr::from(format!("<code>{inner}</code>")))
            }
            Event::Start(Tag::Heading {
                level,
                classes,
                attrs,
                ..
            }) => Event::Start(Tag::Heading {
                level: *level,
                id: None,
                classes: classes.clone(),
                attrs: attrs.clone(),
            }),
            Event::FootnoteReference(name) => Event::InlineHtml(CowStr::from(format!(
                "<sup class=\"footnote-reference\">[{}]</sup>",
                escape(name)
            ))),
            Event::Start(Tag::FootnoteDefinition(name)) => {
                Event::InlineHtml(CowStr::from(format!(
                    "<div class=\"footnote-definition\"><sup class=\"footnote-definition-label\">{}</sup>",
                    escape(name)
                )))
            }
            Event::End(TagEnd::FootnoteDefinition) => Event::InlineHtml("</div>".into()),
            other => other.clone(),
        };
        self.next += 1;
        out
    }

    /// Text as HTML, each run of changed words in one `<ins>` or `<del>`,
    /// each reference to a rule in a link (the marks closed and opened
    /// again at its ends, so the tags nest).
    fn text(&mut self, text: &str) -> String {
        let words = textdiff::tokens(text);
        let mut refs = self.references(text, &words).into_iter().peekable();
        let (mut html, mut open) = (String::new(), false);
        let (mut at, mut link_end) = (0, None);
        for word in words {
            if link_end == Some(at) {
                self.close(&mut html, &mut open);
                html.push_str("</a>");
                link_end = None;
            }
            if let Some((range, id)) = refs.next_if(|(r, _)| r.start == at) {
                self.close(&mut html, &mut open);
                let prefix = self.links.map_or("", |l| l.prefix);
                xref::open_link(&mut html, prefix, id);
                link_end = Some(range.end);
            }
            let on = self.changed.get(self.next).copied().unwrap_or(false);
            self.next += 1;
            if on != open {
                let slash = if on { "" } else { "/" };
                html.push_str(&format!("<{slash}{}>", self.mark));
                open = on;
            }
            html.push_str(&escape(word));
            at += word.len();
        }
        self.close(&mut html, &mut open);
        if link_end.is_some() {
            html.push_str("</a>");
        }
        html
    }

    /// Closes the open `<ins>` or `<del>`, if any.
    fn close(&self, html: &mut String, open: &mut bool) {
        if std::mem::take(open) {
            html.push_str(&format!("</{}>", self.mark));
        }
    }

    /// The references in `text` that start and end between its `words`
    /// (outside links), in order.
    fn references(&self, text: &str, words: &[&str]) -> Vec<(std::ops::Range<usize>, &'m str)> {
        let Some(links) = self.links.filter(|_| self.in_link == 0) else {
            return Vec::new();
        };
        let mut bounds = vec![0];
        for word in words {
            bounds.push(bounds.last().copied().unwrap_or(0) + word.len());
        }
        let between = |at: usize| bounds.binary_search(&at).is_ok();
        xref::references(text, links.targets)
            .into_iter()
            .filter(|(r, _)| between(r.start) && between(r.end))
            .collect()
    }
}

/// The block's HTML inside its quotes and list item: a list item keeps
/// its bullet or number, a later paragraph of the same item does not.
fn wrap(block: &Block, body: &str) -> String {
    let mut html = "<blockquote>".repeat(block.quotes);
    let close_list = match block.item {
        Some(item) => {
            let (tag, start) = match item {
                Item {
                    ordered: true,
                    number,
                    ..
                } if number != 1 => ("ol", format!(" start=\"{number}\"")),
                Item { ordered: true, .. } => ("ol", String::new()),
                _ => ("ul", String::new()),
            };
            let depth = item.depth.min(4);
            let li = if item.first {
                "<li>"
            } else {
                "<li class=\"more\">"
            };
            html.push_str(&format!("<{tag}{start} class=\"depth-{depth}\">{li}"));
            format!("</li></{tag}>")
        }
        None => String::new(),
    };
    html.push_str(body);
    html.push_str(&close_list);
    html.push_str(&"</blockquote>".repeat(block.quotes));
    html
}

/// The rows as HTML, unchanged runs far from a change folded to "…".
fn fold(rows: &[(&str, String)]) -> String {
    let near = |i: usize| {
        let lo = i.saturating_sub(CONTEXT);
        let hi = (i + CONTEXT + 1).min(rows.len());
        rows[lo..hi].iter().any(|(kind, _)| *kind != "same")
    };
    let mut out = String::new();
    if rows.iter().all(|(kind, _)| *kind == "same") {
        // A change of source alone (spacing, a list marker): nothing shows.
        return out;
    }
    for (i, (kind, html)) in rows.iter().enumerate() {
        if near(i) {
            let sr = match *kind {
                "add" => "<span class=\"sr\">added: </span>",
                "del" => "<span class=\"sr\">removed: </span>",
                _ => "",
            };
            out.push_str(&format!("<div class=\"{kind}\">{sr}{html}</div>\n"));
        } else if i == 0 || near(i - 1) {
            out.push_str("<div class=\"fold\">…</div>\n");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_diff_is_rendered_with_the_changed_words_marked() {
        let old = "Each player has *three* [Springs](https://example.org/s).\n\n\
                   - Wind once a day.\n- Rest.\n\nUntouched.\n";
        let new = "Each player has *four* [Springs](https://example.org/s).\n\n\
                   - Wind twice a day.\n- Rest.\n\nUntouched.\n";
        let html = diff_html(old, new, None);
        insta::assert_snapshot!(html, @r#"
        <div class="del"><span class="sr">removed: </span><p>Each player has <em><del>three</del></em> <a href="https://example.org/s">Springs</a>.</p></div>
        <div class="del"><span class="sr">removed: </span><ul class="depth-1"><li>Wind <del>once</del> a day.</li></ul></div>
        <div class="add"><span class="sr">added: </span><p>Each player has <em><ins>four</ins></em> <a href="https://example.org/s">Springs</a>.</p></div>
        <div class="add"><span class="sr">added: </span><ul class="depth-1"><li>Wind <ins>twice</ins> a day.</li></ul></div>
        <div class="same"><ul class="depth-1"><li>Rest.</li></ul></div>
        <div class="fold">…</div>
        "#);
    }

    #[test]
    fn an_added_item_keeps_its_number_and_a_later_paragraph_no_bullet() {
        let old = "1. One.\n2. Two.\n";
        let new = "1. One.\n2. Two.\n3. Three.\n\n   More of three.\n";
        let html = diff_html(old, new, None);
        assert!(
            html.contains(
                "<ol start=\"3\" class=\"depth-1\"><li><p><ins>Three.</ins></p></li></ol>"
            ),
            "{html}"
        );
        assert!(
            html.contains("<li class=\"more\"><p><ins>More of three.</ins></p></li>"),
            "{html}"
        );
        assert!(!html.contains("- ") && !html.contains("3."), "{html}");
        assert_eq!(
            diff_html("- a\n- b\n", "* a\n* b\n", None),
            "",
            "only the markers changed"
        );
    }

    fn targets(titles: &[&str]) -> Targets {
        let by_title = titles
            .iter()
            .map(|t| (t.to_lowercase(), Some(t.to_lowercase())))
            .collect();
        let by_number = [("2.6".to_string(), "raiding".to_string())].into();
        Targets::from_maps(by_number, by_title)
    }

    #[test]
    fn references_link_into_the_ruleset_each_side_was_in() {
        let (before, after) = (targets(&["Invasion"]), targets(&["Invasion", "Raiding"]));
        let xrefs = Xrefs {
            before: Links {
                targets: &before,
                prefix: "../rulesets/1.html",
            },
            after: Links {
                targets: &after,
                prefix: "../rulesets/2.html",
            },
        };
        let old =
            "Raids follow “Invasion”.\n\nAs “Invasion” says, [Rule 2.6](https://x.org) holds.\n";
        let new = "Raids follow “Raiding”, as Rule 2.6 says.\n\nAs “Invasion” says, [Rule 2.6](https://x.org) holds.\n";
        let html = diff_html(old, new, Some(xrefs));
        // The changed title is linked on each side into its own ruleset,
        // the marks inside the link; a title no rule has stays text; a
        // link in the text is not linked again.
        insta::assert_snapshot!("linked_diff", html);
        assert!(
            html.contains(
                "<a class=\"xref\" href=\"../rulesets/1.html#invasion\">“<del>Invasion</del>”</a>"
            ),
            "{html}"
        );
        assert!(
            html.contains(
                "<a class=\"xref\" href=\"../rulesets/2.html#raiding\">“<ins>Raiding</ins>”</a>"
            ),
            "{html}"
        );
        assert!(!html.contains("x.org\"><a"), "{html}");
        // The old sentence's full stop is the new one's, not the point
        // inside the new "2.6".
        assert!(
            html.contains("<ins>Rule 2.6</ins></a><ins> says</ins>.</p>"),
            "{html}"
        );
    }

    #[test]
    fn raw_html_and_markup_in_rule_text_are_shown_as_text() {
        let html = diff_html(
            "Safe.\n",
            "Safe <script>alert(1)</script> & \"sound\".\n",
            None,
        );
        assert!(!html.contains("<script>"), "{html}");
        assert!(html.contains("&lt;script&gt;"), "{html}");
        assert!(html.contains("<ins>"), "{html}");
    }
}
