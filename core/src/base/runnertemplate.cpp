// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "pte/runnertemplate.h"

#include <optional>

namespace pte {

namespace {

bool isNameChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

bool isPlainShellChar(char c)
{
    switch (c) {
    case '_':
    case '-':
    case '.':
    case '/':
    case ':':
    case '=':
    case '@':
    case '%':
    case '+':
    case ',':
        return true;
    default:
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    }
}

const std::string* pathOf(const RunnerPaths& paths, std::string_view name)
{
    if (name == "pte")
        return &paths.pte;
    if (name == "etdump")
        return &paths.etdump;
    if (name == "debug_buffer")
        return &paths.debugBuffer;
    if (name == "inputs")
        return &paths.inputs;
    return nullptr;
}

std::string knownNames()
{
    std::string names;
    for (const auto& p : runnerPlaceholders())
        names += (names.empty() ? "{" : ", {") + std::string(p.name) + "}";
    return names;
}

/** One piece of a template: literal text, or a placeholder (name and the offset of its '{'). */
struct Piece
{
    std::string text;
    bool placeholder = false;
    std::size_t offset = 0;
};

Result<std::vector<Piece>> parse(std::string_view templ)
{
    std::vector<Piece> pieces;
    std::string literal;
    auto flush = [&] {
        if (!literal.empty())
            pieces.push_back(Piece { std::move(literal), false, 0 });
        literal.clear();
    };
    for (std::size_t i = 0; i < templ.size(); ++i) {
        const char c = templ[i];
        if ((c == '{' || c == '}') && i + 1 < templ.size() && templ[i + 1] == c) {
            literal += c; // "{{" and "}}": a literal brace
            ++i;
            continue;
        }
        if (c != '{' || (i > 0 && templ[i - 1] == '$')) {
            literal += c; // "${NAME}" is the shell's
            continue;
        }
        std::size_t end = i + 1;
        while (end < templ.size() && isNameChar(templ[end]))
            ++end;
        if (end == i + 1) {
            literal += c; // "{ a; b; }", "{a,b}" with a non-name start: shell syntax
            continue;
        }
        if (end == templ.size())
            return fail(ErrorCode::InvalidInput,
                "the run template's placeholder '" + std::string(templ.substr(i)) + "' at offset " + std::to_string(i)
                    + " has no closing '}'",
                i);
        if (templ[end] != '}') {
            literal += c; // "{a,b}": brace expansion, not a placeholder
            continue;
        }
        const std::string_view name = templ.substr(i + 1, end - i - 1);
        if (!pathOf(RunnerPaths {}, name))
            return fail(ErrorCode::InvalidInput,
                "the run template has an unknown placeholder '{" + std::string(name) + "}' at offset "
                    + std::to_string(i) + " (known: " + knownNames() + "; write '{{' for a literal '{')",
                i);
        flush();
        pieces.push_back(Piece { std::string(name), true, i });
        i = end;
    }
    flush();
    return pieces;
}

} // namespace

const std::vector<RunnerPlaceholder>& runnerPlaceholders()
{
    static const std::vector<RunnerPlaceholder> placeholders {
        { "pte", "The program (.pte) ptelens writes before the run: the file to load and run." },
        { "etdump", "Where the command must leave the ETDump (.etdp) of the run; ptelens opens it afterwards." },
        { "debug_buffer",
            "Where the command may leave the debug buffer (logged tensor bytes, e.g. etrt_runner --debug-buffer "
            "with --debug-level intermediates); opened with the ETDump when it is there." },
        { "inputs",
            "The input values, an etrt_runner --inputs JSON file ptelens writes (\"{}\": the runner's default fill, "
            "which the reference interpreter reproduces)." },
    };
    return placeholders;
}

std::string shellQuote(std::string_view text)
{
    bool plain = !text.empty();
    for (const char c : text)
        plain = plain && isPlainShellChar(c);
    if (plain)
        return std::string(text);
    std::string out = "'";
    for (const char c : text) {
        if (c == '\'')
            out += "'\\''";
        else
            out += c;
    }
    return out + "'";
}

Result<std::string> expandRunnerTemplate(std::string_view templ, const RunnerPaths& paths)
{
    auto pieces = parse(templ);
    if (!pieces)
        return std::move(pieces).error();
    std::string out;
    bool usesPte = false;
    for (const auto& piece : *pieces) {
        if (!piece.placeholder) {
            out += piece.text;
            continue;
        }
        usesPte = usesPte || piece.text == "pte";
        out += shellQuote(*pathOf(paths, piece.text));
    }
    if (!usesPte)
        return fail(ErrorCode::InvalidInput,
            "the run template does not name {pte}, the program to run: write {pte} where the command takes the "
            "program's path (e.g. executor_runner --model_path {pte} --etdump_path {etdump})");
    return out;
}

bool runnerTemplateUses(std::string_view templ, std::string_view name)
{
    auto pieces = parse(templ);
    if (!pieces)
        return false;
    for (const auto& piece : *pieces)
        if (piece.placeholder && piece.text == name)
            return true;
    return false;
}

} // namespace pte
