//! The comment a model may put first in a Copilot edit to name the file
//! (`# filepath: /abs/path`), by the file's language as Copilot's extension table gives it.

/// `(start, end, extensions)`: the first row listing an extension wins; others use `//`.
const LANGUAGES: &[(&str, &str, &[&str])] = &[
    ("REM", "", &["bat", "cmd"]),
    ("%", "", &["bib"]),
    ("//", "", &["c", "i"]),
    (";", "", &["clj", "cljs", "cljc", "cljx", "clojure", "edn"]),
    ("//", "", &["coffee", "cson", "iced"]),
    (
        "//",
        "",
        &[
            "cpp", "cc", "cxx", "c++", "hpp", "hh", "hxx", "h++", "h", "ii", "ino", "inl", "ipp",
            "ixx", "tpp", "txx",
        ],
    ),
    ("//", "", &["cs", "csx", "cake"]),
    ("/*", "*/", &["css"]),
    ("//", "", &["dart"]),
    ("#", "", &["dockerfile", "containerfile"]),
    ("//", "", &["fs", "fsi", "fsx", "fsscript"]),
    ("//", "", &["go"]),
    ("//", "", &["groovy", "gvy", "gradle", "jenkinsfile", "nf"]),
    ("{{!", "}}", &["hbs", "handlebars"]),
    (
        "<!--",
        "-->",
        &[
            "html", "htm", "shtml", "xhtml", "xht", "mdoc", "jsp", "asp", "aspx", "jshtm", "volt",
            "ejs", "rhtml",
        ],
    ),
    ("//", "", &["java", "class"]),
    ("//", "", &["js", "es6", "mjs", "cjs", "pac"]),
    ("//", "", &["jsx"]),
    ("//", "", &["json"]),
    ("#", "", &["jl"]),
    ("%", "", &["tex", "ltx", "ctx"]),
    ("//", "", &["less"]),
    ("--", "", &["lua"]),
    ("#", "", &["mak", "mk"]),
    (
        "<!--",
        "-->",
        &[
            "md", "mkd", "mdwn", "mdown", "markdown", "markdn", "mdtxt", "mdtext", "workbook",
        ],
    ),
    ("//", "", &["m"]),
    ("//", "", &["mm"]),
    ("#", "", &["pl", "pm", "pod", "t", "psgi"]),
    ("//", "", &["php", "php4", "php5", "phtml", "ctp"]),
    ("#", "", &["ps1", "psm1", "psd1", "pssc", "psrc"]),
    (
        "#",
        "",
        &[
            "py", "rpy", "pyw", "cpy", "gyp", "gypi", "pyi", "ipy", "pyt",
        ],
    ),
    ("#", "", &["r", "rhistory", "rprofile", "rt"]),
    ("<!--", "-->", &["cshtml", "razor"]),
    (
        "#",
        "",
        &[
            "rb", "rbx", "rjs", "gemspec", "rake", "ru", "erb", "podspec", "rbi",
        ],
    ),
    ("//", "", &["rs"]),
    ("//", "", &["scss"]),
    (
        "#",
        "",
        &[
            "sh",
            "bash",
            "bashrc",
            "bash_aliases",
            "bash_profile",
            "bash_login",
            "ebuild",
            "profile",
            "bash_logout",
            "xprofile",
            "xsession",
            "xsessionrc",
            "zsh",
            "zshrc",
            "zprofile",
            "zlogin",
            "zlogout",
            "zshenv",
            "zsh-theme",
            "fish",
            "ksh",
            "csh",
            "cshrc",
            "tcshrc",
            "yashrc",
            "yash_profile",
        ],
    ),
    ("--", "", &["sql", "dsql"]),
    ("//", "", &["swift"]),
    ("%", "", &["sty", "cls", "bbx", "cbx"]),
    ("//", "", &["ts", "cts", "mts"]),
    ("//", "", &["tsx"]),
    ("'", "", &["vb", "brs", "vbs", "bas", "vba"]),
    ("//", "", &["vue"]),
    (
        "<!--",
        "-->",
        &[
            "xml",
            "xsd",
            "ascx",
            "atom",
            "axml",
            "axaml",
            "bpmn",
            "cpt",
            "csl",
            "csproj",
            "dita",
            "ditamap",
            "dtd",
            "ent",
            "mod",
            "dtml",
            "fsproj",
            "fxml",
            "iml",
            "isml",
            "jmx",
            "launch",
            "menu",
            "mxml",
            "nuspec",
            "opml",
            "owl",
            "proj",
            "props",
            "pt",
            "publishsettings",
            "pubxml",
            "rbxlx",
            "rbxmx",
            "rdf",
            "rng",
            "rss",
            "shproj",
            "storyboard",
            "svg",
            "targets",
            "tld",
            "tmx",
            "vbproj",
            "vcxproj",
            "wsdl",
            "wxi",
            "wxl",
            "wxs",
            "xaml",
            "xbl",
            "xib",
            "xlf",
            "xliff",
            "xpdl",
            "xul",
            "xoml",
        ],
    ),
    ("<!--", "-->", &["xsl", "xslt"]),
];

/// Node's `path.extname(name)`, lower-cased, without the dot: the last extension of the file
/// name (`.bashrc` has none).
fn extension(path: &str) -> Option<String> {
    let name = path.rsplit('/').next().unwrap_or(path);
    let dot = name.rfind('.')?;
    if dot == 0 {
        return None;
    }
    Some(name[dot + 1..].to_lowercase())
}

/// The comment line `<start> filepath: <path>[ <end>]\n` for the language of `path`.
pub(super) fn comment_for(path: &str) -> String {
    let ext = extension(path);
    let (start, end) = LANGUAGES
        .iter()
        .find(|(_, _, exts)| ext.as_deref().is_some_and(|e| exts.contains(&e)))
        .map_or(("//", ""), |(s, e, _)| (*s, *e));
    if end.is_empty() {
        format!("{start} filepath: {path}\n")
    } else {
        format!("{start} filepath: {path} {end}\n")
    }
}

/// `text` without a first line [`comment_for`] `path`.
pub(super) fn strip(text: &str, path: &str) -> String {
    let prefix = comment_for(path);
    text.strip_prefix(&prefix).unwrap_or(text).to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_comment_follows_the_language() {
        assert_eq!(strip("# filepath: /r/a.py\nx = 1", "/r/a.py"), "x = 1");
        assert_eq!(strip("<!-- filepath: /r/a.md -->\n# T", "/r/a.md"), "# T");
        assert_eq!(strip("// filepath: /r/a.yaml\nk: v", "/r/a.yaml"), "k: v");
        assert_eq!(
            strip("# filepath: /r/a.py\r\nx", "/r/a.py"),
            "# filepath: /r/a.py\r\nx"
        );
    }
}
