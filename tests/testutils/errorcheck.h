// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// One check for "this failed the right way": an error's code and the phrases its message must contain.
#pragma once

#include "pte/result.h"

#include <QTest>

#include <string>
#include <vector>

namespace pte::test {

/** Why `e` is not an error with `code` whose message contains every needle; empty when it is. */
inline std::string errorMismatch(const Error& e, ErrorCode code, const std::vector<std::string>& needles)
{
    std::string why;
    if (e.code != code)
        why += std::string("code ") + errorCodeName(e.code) + ", expected " + errorCodeName(code) + "; ";
    for (const auto& needle : needles)
        if (e.message.find(needle) == std::string::npos)
            why += "no '" + needle + "'; ";
    return why.empty() ? why : why + "message: " + e.message;
}

/** errorMismatch of a Result: a value is a mismatch too. */
template <typename T>
std::string errorMismatch(const Result<T>& r, ErrorCode code, const std::vector<std::string>& needles)
{
    if (r.has_value())
        return "expected an error, got a value";
    return errorMismatch(r.error(), code, needles);
}

} // namespace pte::test

/** Fails the test unless `r` (a pte::Result or pte::Error) is an error with `code` whose message contains each of
 *  the phrases that follow (string literals, or one std::vector<std::string>). */
#define QVERIFY_ERROR(r, code, ...)                                                                                    \
    do {                                                                                                               \
        const std::string pteWhy_ = ::pte::test::errorMismatch((r), (code), { __VA_ARGS__ });                          \
        if (!pteWhy_.empty())                                                                                          \
            QFAIL(pteWhy_.c_str());                                                                                    \
    } while (false)
