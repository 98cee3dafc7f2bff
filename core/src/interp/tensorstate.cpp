// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "interp/tensorstate.h"

#include "base/float16.h"
#include "pte/elementvalue.h"

#include <cmath>

namespace pte::interp {

namespace {

template <typename T> void storeAs(std::uint8_t* p, T v) { std::memcpy(p, &v, sizeof v); }

} // namespace

double TensorState::get(std::size_t i) const
{
    // The stored number (a Bool as its byte); NaN for a dtype outside supportedDtype, which no tensor of a loaded
    // method has.
    if (!supportedDtype(dtype))
        return std::nan("");
    return *elementValue(dtype, data + physical(i) * elementSize(dtype), ElementReading::Stored);
}

void TensorState::set(std::size_t i, double v)
{
    std::uint8_t* p = data + physical(i) * elementSize(dtype);
    switch (dtype) {
    case ScalarType::Float:
        storeAs(p, float(v));
        break;
    case ScalarType::Double:
        storeAs(p, v);
        break;
    case ScalarType::Long:
        storeAs(p, std::int64_t(v));
        break;
    case ScalarType::Int:
        storeAs(p, std::int32_t(v));
        break;
    case ScalarType::Bool:
        storeAs(p, std::uint8_t(v != 0 ? 1 : 0));
        break;
    case ScalarType::Byte:
        storeAs(p, std::uint8_t(v));
        break;
    case ScalarType::Char:
        storeAs(p, std::int8_t(v));
        break;
    case ScalarType::Short:
        storeAs(p, std::int16_t(v));
        break;
    case ScalarType::Half:
        storeAs(p, base::floatToHalf(float(v)));
        break;
    case ScalarType::BFloat16:
        storeAs(p, base::floatToBFloat16(float(v)));
        break;
    default:
        break;
    }
}

bool supportedDtype(ScalarType t)
{
    switch (t) {
    case ScalarType::Float:
    case ScalarType::Double:
    case ScalarType::Long:
    case ScalarType::Int:
    case ScalarType::Bool:
    case ScalarType::Byte:
    case ScalarType::Char:
    case ScalarType::Short:
    case ScalarType::Half:
    case ScalarType::BFloat16:
        return true;
    default:
        return false;
    }
}

bool heldDtype(ScalarType t) { return supportedDtype(t) || t == ScalarType::ComplexFloat; }

} // namespace pte::interp
