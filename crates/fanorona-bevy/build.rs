//! Embeds every Fluent message file of `locales/<language>/` into the client, so that a feature
//! adds its texts by adding `locales/<code>/<feature>.ftl` for each language, with no code change.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("locales");
    // A directory here makes Cargo rerun this script when any file under it changes.
    println!("cargo::rerun-if-changed={}", root.display());
    let mut out = String::from(
        "/// Every message file: (language code, file name, contents), sorted.\n\
         pub(crate) const FILES: &[(&str, &str, &str)] = &[\n",
    );
    let mut files = Vec::new();
    for language in std::fs::read_dir(&root).expect("the locales folder") {
        let language = language.expect("a locales entry").path();
        if !language.is_dir() {
            continue;
        }
        let code = language
            .file_name()
            .and_then(|n| n.to_str())
            .expect("a language folder named by its code")
            .to_owned();
        for file in std::fs::read_dir(&language).expect("a language folder") {
            let path = file.expect("a message file").path();
            if path.extension().is_some_and(|e| e == "ftl") {
                let name = path
                    .file_name()
                    .and_then(|n| n.to_str())
                    .expect("a UTF-8 file name")
                    .to_owned();
                files.push((code.clone(), name, path));
            }
        }
    }
    files.sort();
    for (code, name, path) in files {
        let path = path.canonicalize().expect("a message file's path");
        writeln!(
            out,
            "    ({code:?}, {name:?}, include_str!({:?})),",
            path.display().to_string()
        )
        .expect("writing to a String");
    }
    out.push_str("];\n");
    let dest = Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("locales.rs");
    std::fs::write(dest, out).expect("writing locales.rs");
}
