//! The situation derived live, with the user's changes kept apart.
//!
//! A resolver form has two sources: what kepi reads from the units (figures, class, disorder...,
//! set by [`Form::prefill`]) and what the user ticked or typed. Filling a form once when the units
//! are picked goes stale at the next action (a melee rolled with 22 figures after a fire had left
//! 20). So the window keeps, per form, the **base** kepi derived and the **edited** form the user
//! sees; each frame it derives a fresh base from the current state and carries over only the
//! fields the user changed ([`rebase`]). Those changes are listed as such ([`overrides`]) and can be
//! reset one by one ([`reset`]).
//!
//! The comparison runs over the forms' serde form, field by field, so it covers every rule set's
//! forms without a line per field; it reads the user's input, never an outcome.

use serde_json::Value;

use super::Form;

/// One field the user set differently from what kepi derived.
#[derive(Clone, Debug, PartialEq)]
pub struct Override {
    /// Where it is in the form (serde field names from the top).
    pub path: Vec<String>,
    /// The field, for people ("figures", "b: disordered").
    pub label: String,
    /// The user's value, for people.
    pub value: String,
    /// What kepi derived, for people.
    pub derived: String,
}

/// A form's value in words, as "Set by you" lists it (issue 46: a measured range read
/// `{"amount":"12","unit":"in"}`): yes or no, none, a length as "12 in", a list item by item,
/// a group of fields as "name: value" pairs. Reads the user's input, never an outcome.
pub fn in_words(v: &Value) -> String {
    match v {
        Value::Bool(true) => "yes".into(),
        Value::Bool(false) => "no".into(),
        Value::Null => "none".into(),
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        Value::Array(items) if items.is_empty() => "none".into(),
        Value::Array(items) => items
            .iter()
            .map(|i| match i {
                // A pair in a list (a unit and its losses): "de-1 3".
                Value::Array(pair) => pair.iter().map(in_words).collect::<Vec<_>>().join(" "),
                other => in_words(other),
            })
            .collect::<Vec<_>>()
            .join(", "),
        Value::Object(o) => match (o.get("amount"), o.get("unit")) {
            (Some(amount), Some(unit)) if o.len() == 2 => {
                format!("{} {}", in_words(amount), in_words(unit))
            }
            _ if o.is_empty() => "none".into(),
            _ => o
                .iter()
                .map(|(k, v)| format!("{}: {}", k.replace('_', " "), in_words(v)))
                .collect::<Vec<_>>()
                .join(", "),
        },
    }
}

fn label(path: &[String]) -> String {
    let last = path.last().map(String::as_str).unwrap_or("");
    let name = last.replace('_', " ");
    // Melee forms hold one side's inputs under "a" and "b".
    match path.iter().rev().nth(1).map(String::as_str) {
        Some(side @ ("a" | "b")) => format!("{side}: {name}"),
        _ => name,
    }
}

/// The leaves where `a` and `b` differ (objects are walked; anything else compares whole).
fn diff(a: &Value, b: &Value, path: &mut Vec<String>, out: &mut Vec<(Vec<String>, Value, Value)>) {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (k, va) in x {
                path.push(k.clone());
                match y.get(k) {
                    Some(vb) => diff(va, vb, path, out),
                    None => out.push((path.clone(), va.clone(), Value::Null)),
                }
                path.pop();
            }
            for (k, vb) in y {
                if !x.contains_key(k) {
                    path.push(k.clone());
                    out.push((path.clone(), Value::Null, vb.clone()));
                    path.pop();
                }
            }
        }
        _ if a != b => out.push((path.clone(), a.clone(), b.clone())),
        _ => {}
    }
}

/// The fields of `edited` that differ from `base` (the units picked are not the user's situation:
/// picking them goes through [`Form::prefill`]).
pub fn overrides(base: &Form, edited: &Form) -> Vec<Override> {
    let (Ok(b), Ok(e)) = (serde_json::to_value(base), serde_json::to_value(edited)) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    diff(&b, &e, &mut Vec::new(), &mut out);
    out.into_iter()
        .filter(|(p, _, _)| !matches!(p.last().map(String::as_str), Some("actor" | "target")))
        .map(|(path, derived, value)| Override {
            label: label(&path),
            value: in_words(&value),
            derived: in_words(&derived),
            path,
        })
        .collect()
}

fn set(root: &mut Value, path: &[String], v: Value) -> bool {
    let Some((last, parents)) = path.split_last() else {
        return false;
    };
    let mut at = root;
    for k in parents {
        match at.get_mut(k) {
            Some(next) => at = next,
            None => return false,
        }
    }
    match at.as_object_mut() {
        Some(o) => {
            o.insert(last.clone(), v);
            true
        }
        None => false,
    }
}

/// Takes the field at `path` out of `root`; false when it was not there.
fn remove(root: &mut Value, path: &[String]) -> bool {
    let Some((last, parents)) = path.split_last() else {
        return false;
    };
    let mut at = root;
    for k in parents {
        match at.get_mut(k) {
            Some(next) => at = next,
            None => return false,
        }
    }
    at.as_object_mut().is_some_and(|o| o.remove(last).is_some())
}

fn get<'a>(root: &'a Value, path: &[String]) -> Option<&'a Value> {
    path.iter().try_fold(root, |at, k| at.get(k))
}

/// What the user changed in `edited` against `base`, as (path, value): the situation a window
/// sends its host (`kepi game apply ... form NAME UNIT --set PATH=VALUE`), so the host derives
/// everything else from its own game ([`apply_changes`]).
pub fn changes(base: &Form, edited: &Form) -> Vec<(Vec<String>, Value)> {
    let (Ok(b), Ok(e)) = (serde_json::to_value(base), serde_json::to_value(edited)) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    diff(&b, &e, &mut Vec::new(), &mut out);
    // The units travel as units (UNIT, TARGET, --attacker), not as fields.
    out.into_iter()
        .filter(|(p, _, _)| {
            p.split_last()
                .is_none_or(|(k, parents)| !not_a_field(parents, k))
        })
        .map(|(path, _, value)| (path, value))
        .collect()
}

/// Whether `key` under `parents` names what a form is or which units it is about, rather than its
/// situation: the tag (`form`, a registered form's `name`) and the units (`actor`, `target`, a
/// combat's `attacker_ids` and `defender_ids`), which are never set as fields.
fn not_a_field(parents: &[String], key: &str) -> bool {
    matches!(key, "form" | "actor" | "target")
        || key.ends_with("_ids")
        || (parents.is_empty() && key == "name")
}

/// The fields a form holds at `path`'s parent, for a message naming the accepted ones.
fn fields_at(root: &Value, parents: &[String]) -> Vec<String> {
    get(root, parents)
        .and_then(Value::as_object)
        .map(|o| {
            o.keys()
                .filter(|k| !not_a_field(parents, k))
                .cloned()
                .collect()
        })
        .unwrap_or_default()
}

/// `fresh` (derived from the game) with each (path, value) of `changes` set, in order. A path the
/// form does not have, or a value its field does not take, is refused with the reason (naming
/// the fields there are); the units (`actor`, `target`) are not changed this way.
pub fn apply_changes(fresh: &Form, changes: &[(Vec<String>, Value)]) -> Result<Form, String> {
    let mut out = fresh.clone();
    for (path, value) in changes {
        let shown = path.join(".");
        let mut json = serde_json::to_value(&out).map_err(|e| format!("`{shown}`: {e}"))?;
        let Some((last, parents)) = path.split_last() else {
            return Err("an empty field path".into());
        };
        let known = fields_at(&json, parents);
        let no_field = || {
            format!(
                "no field `{shown}` in `{}` (accepted{}: {})",
                out.name(),
                if parents.is_empty() {
                    String::new()
                } else {
                    format!(" under `{}`", parents.join("."))
                },
                if known.is_empty() {
                    "-".to_string()
                } else {
                    known.join(", ")
                }
            )
        };
        // A field a form leaves out of its JSON while it is not given (P&K's sight, PK-V1, so
        // older logs hash as they were) is absent from `json`: it may be set when the form reads
        // it back, checked below.
        let present = get(&json, path).is_some();
        let parent_is_object = get(&json, parents).is_some_and(Value::is_object);
        // The units are chosen as units (UNIT, TARGET, a combat's attackers), never as a field:
        // over the network that is what a seat's permission is checked on.
        if not_a_field(parents, last) || !parent_is_object || (present && !known.contains(last)) {
            return Err(no_field());
        }
        if !set(&mut json, path, value.clone()) {
            return Err(format!("no field `{shown}` in `{}`", out.name()));
        }
        let next = out
            .with_value(&json)
            .ok_or_else(|| format!("`{shown}={value}`: not a value this field takes"))?;
        if !present {
            // Not a field the form has (serde drops a key it does not know) unless it is there
            // once the form is written back.
            let back = serde_json::to_value(&next).map_err(|e| format!("`{shown}`: {e}"))?;
            if get(&back, path).is_none() {
                return Err(no_field());
            }
        }
        out = next;
    }
    Ok(out)
}

/// `fresh` (derived from the state now) with the fields the user changed in `edited` relative to
/// `old` (derived before) carried over. A change that no longer fits the form (another action's
/// field) is dropped rather than breaking it.
pub fn rebase(old: &Form, edited: &Form, fresh: &Form) -> Form {
    let (Ok(o), Ok(e), Ok(mut f)) = (
        serde_json::to_value(old),
        serde_json::to_value(edited),
        serde_json::to_value(fresh),
    ) else {
        return fresh.clone();
    };
    let mut changed = Vec::new();
    diff(&o, &e, &mut Vec::new(), &mut changed);
    let mut out = fresh.clone();
    for (path, _, value) in changed {
        if matches!(path.last().map(String::as_str), Some("actor" | "target")) {
            continue;
        }
        let before = f.clone();
        if set(&mut f, &path, value) {
            match fresh.with_value(&f) {
                Some(form) => out = form,
                None => f = before,
            }
        }
    }
    out
}

/// `edited` with the field at `path` back to what kepi derived (`base`).
pub fn reset(base: &Form, edited: &Form, path: &[String]) -> Form {
    let (Ok(b), Ok(mut e)) = (serde_json::to_value(base), serde_json::to_value(edited)) else {
        return edited.clone();
    };
    let Some(v) = get(&b, path).cloned() else {
        // A field kepi derived as left out (not given: P&K's sight): back to left out.
        return if remove(&mut e, path) {
            edited.with_value(&e).unwrap_or_else(|| edited.clone())
        } else {
            edited.clone()
        };
    };
    if set(&mut e, path, v) {
        edited.with_value(&e).unwrap_or_else(|| edited.clone())
    } else {
        edited.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::in_words;
    use serde_json::json;

    #[test]
    fn a_users_change_reads_as_words_never_as_json() {
        for (v, want) in [
            (json!({"amount": "12", "unit": "in"}), "12 in"),
            (json!(true), "yes"),
            (json!(false), "no"),
            (json!(null), "none"),
            (json!("heavy"), "heavy"),
            (json!(5), "5"),
            (json!([["de-1", 3], ["de-2", 1]]), "de-1 3, de-2 1"),
            (json!([]), "none"),
            (
                json!({"unit": "9e-ligne-2", "cover": "none"}),
                "cover: none, unit: 9e-ligne-2",
            ),
        ] {
            let said = in_words(&v);
            assert_eq!(said, want, "{v}");
            assert!(!said.contains(['{', '"', '[']), "{said}");
        }
    }
}
