// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "dump/dtypetable.h"

namespace pte::dump {

std::optional<ScalarType> convertDtype(DtypeTable table, std::int64_t code)
{
    switch (code) {
    case 1:
        return ScalarType::Byte;
    case 2:
        return ScalarType::Char;
    case 3:
        return ScalarType::Short;
    case 4:
        return ScalarType::Int;
    case 5:
        return ScalarType::Long;
    case 6:
        return ScalarType::Half;
    case 7:
        return ScalarType::Float;
    case 8:
        return ScalarType::Double;
    case 9:
        return ScalarType::ComplexHalf;
    case 10:
        return ScalarType::ComplexFloat;
    case 11:
        return ScalarType::ComplexDouble;
    case 12:
        return ScalarType::Bool;
    case 13:
        return ScalarType::BFloat16;
    default:
        break;
    }
    switch (table) {
    case DtypeTable::TorchUpTo7:
        switch (code) {
        case 23:
            return ScalarType::Float8e5m2;
        case 24:
            return ScalarType::Float8e4m3fn;
        case 25:
            return ScalarType::Float8e5m2fnuz;
        case 26:
            return ScalarType::Float8e4m3fnuz;
        default:
            return std::nullopt;
        }
    case DtypeTable::Torch8Early:
        switch (code) {
        case 14:
            return ScalarType::Float8e4m3fn;
        case 15:
            return ScalarType::Float8e5m2;
        case 28:
            return ScalarType::UInt16;
        default:
            return std::nullopt;
        }
    case DtypeTable::Torch8Current:
        switch (code) {
        case 28:
            return ScalarType::UInt16;
        case 29:
            return ScalarType::Float8e4m3fn;
        case 30:
            return ScalarType::Float8e5m2;
        case 31:
            return ScalarType::Float8e4m3fnuz;
        case 32:
            return ScalarType::Float8e5m2fnuz;
        case 34:
            return ScalarType::UInt32;
        case 35:
            return ScalarType::UInt64;
        default:
            return std::nullopt; // 33 float8_e8m0fnu has no ExecuTorch type
        }
    case DtypeTable::ExecuTorch:
        switch (code) {
        case 14:
            return ScalarType::UInt16;
        case 15:
            return ScalarType::Float8e5m2;
        case 16:
            return ScalarType::Float8e4m3fn;
        default:
            return std::nullopt;
        }
    }
    return std::nullopt;
}

DtypeTable dtypeTableFor(const ExportedProgram& ep)
{
    if (ep.executorchSerde)
        return DtypeTable::ExecuTorch;
    return ep.schemaMajor <= 7 ? DtypeTable::TorchUpTo7
        : ep.schemaMinor < 7   ? DtypeTable::Torch8Early
                               : DtypeTable::Torch8Current;
}

} // namespace pte::dump
