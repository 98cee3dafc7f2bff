// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include "pte/result.h"

#include <string>
#include <string_view>
#include <vector>

/**
 * @file
 * The user's run target: a shell command template ("executor_runner --model_path {pte} --etdump_path {etdump}", or an
 * `adb push` / `adb shell` / `adb pull` sequence for a phone) whose placeholders name the files ptelens writes before
 * the run ({pte}, {inputs}) and the files the run leaves ({etdump}, {debug_buffer}). Expanding it is pure text work:
 * each placeholder becomes its path, quoted for a POSIX shell (`sh -c`).
 *
 * Syntax: "{name}" with a name of letters, digits and '_' is a placeholder, and must be one of runnerPlaceholders();
 * "{{" and "}}" are a literal '{' and '}'; every other brace is kept as written, so shell syntax such as "${HOME}",
 * "{ a; b; }" or "{a,b}" passes through.
 */

namespace pte {

/** One placeholder of a run template. */
struct RunnerPlaceholder
{
    const char* name; ///< "pte", without braces
    const char* meaning; ///< one sentence for the preferences dialog and `--help`
};

/** The placeholders, in the order the preferences dialog lists them: pte, etdump, debug_buffer, inputs. */
[[nodiscard]] const std::vector<RunnerPlaceholder>& runnerPlaceholders();

/** The paths the placeholders stand for (absolute paths in the run's temporary folder). */
struct RunnerPaths
{
    std::string pte; ///< {pte}: the program ptelens wrote
    std::string etdump; ///< {etdump}: where the command must leave the ETDump
    std::string debugBuffer; ///< {debug_buffer}: where the command may leave the debug buffer (logged tensor bytes)
    std::string inputs; ///< {inputs}: the input values, an etrt_runner --inputs JSON file ptelens wrote
};

/**
 * `text` as one word of a POSIX shell: unchanged when it is made only of characters no shell treats specially
 * (letters, digits and `_ - . / : = @ % + ,`) and is not empty; else in single quotes, each `'` written `'\''`.
 */
[[nodiscard]] std::string shellQuote(std::string_view text);

/**
 * The command: `templ` with each placeholder replaced by its path, shell-quoted (shellQuote).
 * @returns InvalidInput naming the placeholder and its byte offset in the template for an unknown placeholder
 *   ("{model}" at offset 12), for a placeholder left open ("{pte" without '}'), and for a template that does not
 *   name {pte} (the command would not run the program); the offset is also Error::offset.
 */
[[nodiscard]] Result<std::string> expandRunnerTemplate(std::string_view templ, const RunnerPaths& paths);

/** True when the template names the placeholder (`name` without braces), as expandRunnerTemplate reads it. */
[[nodiscard]] bool runnerTemplateUses(std::string_view templ, std::string_view name);

} // namespace pte
