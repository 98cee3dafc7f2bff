// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "executiontestutils.h"

#include "pte/ptewriter.h"
#include "testutils.h"

#include <algorithm>
#include <cmath>

namespace pte::test {

Result<Emitted> emitAndReload(
    const std::vector<std::pair<std::string, std::shared_ptr<const ExportedProgram>>>& methods, const std::string& name,
    const EmitOptions& options)
{
    PTE_TRY(auto out, emitProgram(methods, options));
    PTE_TRY(auto laid, layoutForSerialization(out.program, out.mutableData, out.namedData));
    const std::string path = (tempDir() + "/" + QString::fromStdString(name) + ".pte").toStdString();
    PTE_CHECK(writePte(laid, path));
    PTE_TRY(auto file, readPteFile(path));
    for (const auto& d : file->diagnostics)
        if (d.severity == Severity::Error)
            return fail(ErrorCode::InvalidInput, "runtime check failed: " + d.toString());
    return Emitted { std::move(out), std::move(file) };
}

bool nearlyEqual(const std::vector<double>& a, const std::vector<double>& b, double tol)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (std::isnan(a[i]) && std::isnan(b[i]))
            continue;
        if (!(std::fabs(a[i] - b[i]) <= tol * std::max(1.0, std::fabs(b[i]))))
            return false;
    }
    return true;
}

std::string showValues(const std::vector<double>& v)
{
    std::string s = "[";
    for (std::size_t i = 0; i < v.size(); ++i)
        s += (i ? ", " : "") + std::to_string(v[i]);
    return s + "]";
}

std::vector<double> layerNormRows(
    const std::vector<double>& x, std::size_t width, const std::vector<double>& weight, const std::vector<double>& bias)
{
    std::vector<double> out(x.size());
    const double n = double(width);
    for (std::size_t row = 0; row < x.size() / width; ++row) {
        const double* in = x.data() + row * width;
        double m = 0, v = 0;
        for (std::size_t k = 0; k < width; ++k)
            m += in[k] / n;
        for (std::size_t k = 0; k < width; ++k)
            v += (in[k] - m) * (in[k] - m) / n;
        for (std::size_t k = 0; k < width; ++k) {
            const double normed = (in[k] - m) / std::sqrt(v + 1e-5);
            out[row * width + k] = double(float(weight.empty() ? normed : normed * weight[k] + bias[k]));
        }
    }
    return out;
}

nlohmann::json tensorMetaJson(std::vector<std::int64_t> sizes, int dtype)
{
    nlohmann::json s = nlohmann::json::array();
    nlohmann::json st = nlohmann::json::array();
    std::int64_t stride = 1;
    std::vector<std::int64_t> strides(sizes.size());
    for (std::size_t i = sizes.size(); i-- > 0;) {
        strides[i] = stride;
        stride *= sizes[i];
    }
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        s.push_back({ { "as_int", sizes[i] } });
        st.push_back({ { "as_int", strides[i] } });
    }
    return { { "dtype", dtype }, { "sizes", s }, { "requires_grad", false },
        { "device", { { "type", "cpu" }, { "index", nullptr } } }, { "strides", st },
        { "storage_offset", { { "as_int", 0 } } }, { "layout", 7 } };
}

nlohmann::json tensorArgJson(const std::string& name) { return { { "as_tensor", { { "name", name } } } }; }

} // namespace pte::test
