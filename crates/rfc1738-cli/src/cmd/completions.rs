//! `rfc1738 completions SHELL`: the shell completion script, generated
//! from the command's own definition, told what each value is: files
//! for file arguments, the presets of `--log-format`, the part names of
//! `set`, the subcommands of `man`, nothing for a number.

use crate::status;
use clap::builder::PossibleValuesParser;
use clap::ValueHint;
use std::io::{self, Write};

/// Arguments of `completions`.
#[derive(clap::Args)]
pub struct CompletionsArgs {
    /// The shell to write the script for.
    #[arg(value_enum)]
    shell: clap_complete::Shell,
}

/// Writes the completion script of `cmd` for the shell on stdout.
pub fn run(args: &CompletionsArgs, cmd: clap::Command) -> io::Result<u8> {
    let mut cmd = described(cmd);
    // `generate` panics when a write fails; it writes to memory, and a
    // closed pipe on stdout is then an error `main` treats as such.
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "rfc1738", &mut script);
    if args.shell == clap_complete::Shell::Bash {
        script = bash(&String::from_utf8_lossy(&script)).into_bytes();
    }
    let mut out = io::stdout().lock();
    out.write_all(&script)?;
    out.flush()?;
    Ok(status::OK)
}

/// `cmd` with what each value is, for the generators: a file, a
/// directory, a number (nothing to offer), or one of a few words. The
/// command parses with its own definition; this one only completes.
fn described(cmd: clap::Command) -> clap::Command {
    let names: Vec<String> = cmd.get_subcommands().map(|s| s.get_name().to_string()).collect();
    let presets: Vec<&'static str> =
        rfc1738_report::logformat::PRESETS.iter().map(|(name, _)| *name).collect();
    let parts: Vec<String> = rfc1738_report::set::WORDS
        .iter()
        .map(|w| (*w).to_string())
        .chain(
            rfc1738_report::template::part_names()
                .filter(|p| rfc1738_report::set::is_part(p))
                .map(String::from),
        )
        .map(|p| format!("{p}="))
        .collect();
    let subs: Vec<String> = cmd.get_subcommands().map(|s| s.get_name().to_string()).collect();
    let mut cmd = cmd;
    for sub in &subs {
        let (names, presets, parts) = (names.clone(), presets.clone(), parts.clone());
        cmd = cmd.mut_subcommand(sub, move |sc| {
            let mut sc = without_hidden(sc);
            let ids: Vec<String> = sc.get_arguments().map(|a| a.get_id().to_string()).collect();
            for id in ids {
                let (names, presets, parts) = (names.clone(), presets.clone(), parts.clone());
                let name = sc.get_name().to_string();
                sc = sc.mut_arg(&id, move |a| describe(a, &name, &names, &presets, &parts));
            }
            sc
        });
    }
    cmd
}

/// `sc` without its hidden arguments (old spellings taken for a
/// release): clap_complete offers every argument, hidden or not, and a
/// shell should not offer what `--help` does not show.
fn without_hidden(sc: clap::Command) -> clap::Command {
    if !sc.get_arguments().any(clap::Arg::is_hide_set) {
        return sc;
    }
    let name: &'static str = Box::leak(sc.get_name().to_string().into_boxed_str());
    let mut fresh = clap::Command::new(name);
    if let Some(about) = sc.get_about() {
        fresh = fresh.about(about.clone());
    }
    for a in sc.get_arguments().filter(|a| !a.is_hide_set()) {
        fresh = fresh.arg(a.clone());
    }
    fresh
}

/// One argument, described.
fn describe(
    a: clap::Arg,
    sub: &str,
    names: &[String],
    presets: &[&'static str],
    parts: &[String],
) -> clap::Arg {
    let id = a.get_id().as_str().to_string();
    let value_name = a.get_value_names().and_then(|v| v.first()).map(|v| v.as_str().to_string());
    let number = a
        .get_default_values()
        .first()
        .is_some_and(|d| d.to_str().is_some_and(|d| d.bytes().all(|b| b.is_ascii_digit())))
        || matches!(value_name.as_deref(), Some("N" | "BYTES" | "SECS" | "PORT"));
    match (sub, id.as_str()) {
        (_, "url_file" | "files" | "output") => a.value_hint(ValueHint::FilePath),
        (_, "dir") => a.value_hint(ValueHint::DirPath),
        (_, "log_format") => a.value_parser(PossibleValuesParser::new(presets.to_vec())),
        ("man", "subcommand") => a.value_parser(PossibleValuesParser::new(words(names))),
        ("set", "args") => a.value_parser(PossibleValuesParser::new(words(parts))),
        _ if number && a.get_action().takes_values() => a.value_hint(ValueHint::Other),
        _ => a,
    }
}

/// Words for clap, which keeps `'static` names: the process writes one
/// script and ends, so the few bytes leaked are the script's.
fn words(list: &[String]) -> Vec<&'static str> {
    list.iter().map(|w| &*Box::leak(w.clone().into_boxed_str())).collect()
}

/// The bash script, with what clap_complete's leaves out: at the first
/// positional argument it offers the flags (bash then inserts their
/// common `-`), where a file or a word is wanted. Flags come after a
/// `-`; at a positional, its words alone (subcommands, part names), or
/// none, and bash completes files (`-o default`).
fn bash(script: &str) -> String {
    let mut out = String::with_capacity(script.len());
    let mut after_case = false;
    for line in script.lines() {
        let trimmed = line.trim();
        let after = std::mem::replace(&mut after_case, trimmed == "esac");
        if trimmed.starts_with("if [[ ${cur} == -* || ${COMP_CWORD} -eq ") {
            out.push_str(
                &line.replace(&trimmed["if [[ ${cur} == -*".len()..trimmed.len() - " ]] ; then".len()], ""),
            );
        } else if after && trimmed == r#"COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )"# {
            let indent = &line[..line.len() - line.trim_start().len()];
            out.push_str(&format!(
                r#"{indent}COMPREPLY=( $(compgen -W "${{opts}}" -X '-*' -- "${{cur}}") )"#
            ));
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}
