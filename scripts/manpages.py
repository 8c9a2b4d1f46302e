#!/usr/bin/env python3
"""Man pages for ledger, generated from its command tree.

    scripts/manpages.py LEDGER_BINARY OUTPUT_DIR

Reads the tree with `ledger --experimental-dump-help` (argument-parser's description of every
command, flag and argument: the same help text `--help` prints) and writes one page per
command into OUTPUT_DIR: ledger.1, ledger-waterline.1, ledger-waterline-drink.1, ... (as git
names its pages). Each page has the command's abstract and discussion (the manual's prose for
that command), its synopsis, options and subcommands; ledger.1 adds the environment, files
and exit statuses of the contract. Prints the pages written, one per line.
"""
import json
import os
import subprocess
import sys

SECTION = "1"

ROOT_EXTRA = r"""
.SH ENVIRONMENT
.TP
.B LEDGER_REPO
The ledger to use when \fB\-\-repo\fR is not given (else the ledger that contains the current
directory, else \fI$XDG_DATA_HOME/ledger\fR).
.TP
.B LEDGER_NOW
An ISO\-8601 timestamp with offset that every command uses as "now" (for scripts and tests).
.TP
.B TZ
The time zone of the clock.
.TP
.B NO_COLOR
Plain text, no colours.
.SH FILES
.TP
.I ledger.json
The ledger's manifest, at the root of its git repository.
.TP
.I .gitattributes
Sends \fI*.json\fR to the ledger merge driver (\fBledger merge\-driver\fR), registered in
\fI.git/config\fR.
.TP
.I .git/ledger/
This device's state (name, sync bookkeeping, a brew in progress); never synced.
.SH EXIT STATUS
.TP
.B 0
Success.
.TP
.B 1
The data or the request is invalid (\fBcheck\fR found errors, a domain rule refused the action,
\fBdoctor\fR found a problem).
.TP
.B 2
Usage error.
.TP
.B 3
\fBsync\fR could not reach the remote (local work is committed and safe).
.TP
.B 4
Any other failure.
"""


def esc(text):
    """Text for a roff line: backslashes and leading dots or quotes made literal."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    lines = []
    for line in text.split("\n"):
        if line.startswith(".") or line.startswith("'"):
            line = "\\&" + line
        lines.append(line)
    return "\n".join(lines)


def flag_names(arg):
    names = []
    for n in arg.get("names", []):
        names.append(("--" if n["kind"] == "long" else "-") + n["name"])
    return names


def synopsis_word(arg):
    value = "<" + arg.get("valueName", "value") + ">"
    if arg["kind"] == "positional":
        word = value
    else:
        pref = arg.get("preferredName") or arg["names"][0]
        word = ("--" if pref["kind"] == "long" else "-") + pref["name"]
        if arg["kind"] == "option":
            word += " " + value
    if arg.get("isRepeating"):
        word += " ..."
    return "[" + word + "]" if arg.get("isOptional") else word


def visible(items):
    return [i for i in items if i.get("shouldDisplay", True)]


def page(command, path, date, version):
    name = "-".join(path)
    words = " ".join(path)
    out = [f'.TH "{name.upper()}" "{SECTION}" "{date}" "ledger {version}" "ledger manual"', ".SH NAME",
           f"{esc(name)} \\- {esc(command.get('abstract', ''))}", ".SH SYNOPSIS", ".B " + esc(words)]
    args = [a for a in visible(command.get("arguments", []))
            if not {n["name"] for n in a.get("names", [])} & {"help", "h", "version"}]
    subs = visible(command.get("subcommands", []))
    if subs:
        out.append("\\fISUBCOMMAND\\fR")
    for a in args:
        out.append(esc(synopsis_word(a)))
    out.append(".SH DESCRIPTION")
    out.append(esc(command.get("abstract", "")))
    if command.get("discussion"):
        for para in command["discussion"].split("\n\n"):
            out += [".PP", esc(para)]
    if args:
        out.append(".SH OPTIONS")
        for a in args:
            head = ", ".join(flag_names(a)) if a["kind"] != "positional" else "<" + a.get("valueName", "value") + ">"
            if a["kind"] == "option":
                head += " <" + a.get("valueName", "value") + ">"
            out += [".TP", "\\fB" + esc(head) + "\\fR", esc(a.get("abstract", ""))]
            if a.get("discussion"):
                out.append(esc(a["discussion"] if isinstance(a["discussion"], str) else json.dumps(a["discussion"])))
            if a.get("defaultValue"):
                out.append(esc("(default: " + str(a["defaultValue"]) + ")"))
            if a.get("allValues"):
                out.append(esc("(values: " + ", ".join(a["allValues"]) + ")"))
    if subs:
        out.append(".SH SUBCOMMANDS")
        for s in subs:
            out += [".TP", "\\fB" + esc(s["commandName"]) + "\\fR", esc(s.get("abstract", "")) + " See \\fB" +
                    esc(name + "-" + s["commandName"]) + "\\fR(" + SECTION + ")."]
    if len(path) == 1:
        out.append(ROOT_EXTRA.strip())
    related = ["ledger"] if len(path) > 1 else []
    if len(path) > 2:
        related.append("-".join(path[:-1]))
    related += [name + "-" + s["commandName"] for s in subs]
    out += [".SH SEE ALSO", ", ".join("\\fB" + esc(r) + "\\fR(" + SECTION + ")" for r in related + ["git"])]
    return name, "\n".join(out) + "\n"


def walk(command, path, date, version):
    yield page(command, path, date, version)
    for s in visible(command.get("subcommands", [])):
        if s["commandName"] == "help":
            continue
        yield from walk(s, path + [s["commandName"]], date, version)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    binary, outdir = sys.argv[1], sys.argv[2]
    tree = json.loads(subprocess.run([binary, "--experimental-dump-help"], check=True, capture_output=True).stdout)
    version = subprocess.run([binary, "--version"], check=True, capture_output=True, text=True).stdout.strip()
    # The date of the sources, not of the build, so the pages are reproducible.
    date = os.environ.get("SOURCE_DATE", "")
    if not date:
        try:
            date = subprocess.run(["git", "log", "-1", "--format=%cs"], capture_output=True, text=True,
                                  cwd=os.path.dirname(os.path.abspath(__file__))).stdout.strip()
        except OSError:
            date = ""
    os.makedirs(outdir, exist_ok=True)
    for name, text in walk(tree["command"], ["ledger"], date, version):
        target = os.path.join(outdir, name + "." + SECTION)
        with open(target + ".tmp", "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(target + ".tmp", target)
        print(target)


if __name__ == "__main__":
    main()
