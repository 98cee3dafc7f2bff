// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "pte/operatorname.h"

namespace pte {

OperatorName splitOperatorName(std::string_view qualified)
{
    OperatorName out;
    if (const auto colons = qualified.find("::"); colons != std::string_view::npos) {
        out.ns = std::string(qualified.substr(0, colons));
        qualified.remove_prefix(colons + 2);
    }
    const auto dot = qualified.find('.');
    out.name = std::string(qualified.substr(0, dot));
    if (dot != std::string_view::npos)
        out.overload = std::string(qualified.substr(dot + 1));
    return out;
}

} // namespace pte
