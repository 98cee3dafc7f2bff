// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// Benchmark "dump-load": a synthetic PT2 archive (100k nodes, 1 GB of raw STORED weights; --quick: 2k nodes,
// 16 MB) is written to the work folder, then `ptelens-cli graph FILE --load-only` (the load that
// `graph --json` performs, without printing) and `graph --json` are measured.
#include "bench.h"

#include <cstdio>
#include <minizip/zip.h>
#include <string>
#include <vector>

namespace pte::bench {

namespace {

std::string tensorMeta(std::int64_t numel, bool grad)
{
    return R"({"dtype": 7, "sizes": [{"as_int": )" + std::to_string(numel) + R"(}], "requires_grad": )"
        + (grad ? "true" : "false")
        + R"(, "device": {"type": "cpu", "index": null}, "strides": [{"as_int": 1}], "storage_offset": {"as_int": 0}, "layout": 7})";
}

/** The model JSON: a chain of `add` nodes, each adding one of the weights. */
std::string modelJson(int nodes, int weights, std::int64_t numel)
{
    std::string j;
    j.reserve(std::size_t(nodes) * 520 + 4096);
    j += R"({"graph_module": {"graph": {"inputs": [)";
    for (int w = 0; w < weights; ++w)
        j += R"({"as_tensor": {"name": "p_w)" + std::to_string(w) + "\"}}, ";
    j += R"({"as_tensor": {"name": "x"}}], "outputs": [{"as_tensor": {"name": "add_)" + std::to_string(nodes - 1)
        + R"("}}], "nodes": [)";
    for (int i = 0; i < nodes; ++i) {
        const std::string prev = i == 0 ? std::string("x") : "add_" + std::to_string(i - 1);
        j += (i ? ", " : "");
        j += R"({"target": "torch.ops.aten.add.Tensor", "inputs": [{"name": "self", "arg": {"as_tensor": {"name": ")"
            + prev + R"("}}, "kind": 1}, {"name": "other", "arg": {"as_tensor": {"name": "p_w)"
            + std::to_string(i % weights) + R"("}}, "kind": 1}], "outputs": [{"as_tensor": {"name": "add_)"
            + std::to_string(i) + R"("}}], "metadata": {"nn_module_stack": "L__self__,,bench.Chain", "torch_fn": "add_)"
            + std::to_string(i) + R"(;builtin_function_or_method.add"}, "is_hop_single_tensor_return": null})";
    }
    j += R"(], "tensor_values": {)";
    const std::string meta = tensorMeta(numel, false);
    for (int w = 0; w < weights; ++w)
        j += "\"p_w" + std::to_string(w) + "\": " + tensorMeta(numel, true) + ", ";
    j += "\"x\": " + meta;
    for (int i = 0; i < nodes; ++i)
        j += ", \"add_" + std::to_string(i) + "\": " + meta;
    j += R"(}, "sym_int_values": {}, "sym_bool_values": {}, "is_single_tensor_return": false, "custom_obj_values": {},
        "sym_float_values": {}}, "signature": {"input_specs": [)";
    for (int w = 0; w < weights; ++w)
        j += R"({"parameter": {"arg": {"name": "p_w)" + std::to_string(w) + R"("}, "parameter_name": "w)"
            + std::to_string(w) + "\"}}, ";
    j += R"({"user_input": {"arg": {"as_tensor": {"name": "x"}}}}], "output_specs": [{"user_output": {"arg":
        {"as_tensor": {"name": "add_)"
        + std::to_string(nodes - 1) + R"("}}}}]}, "module_call_graph": [], "metadata": {}, "treespec_namedtuple_fields":
        {}}, "opset_version": {"aten": 10}, "range_constraints": {}, "schema_version": {"major": 8, "minor": 12},
        "verifiers": ["ATEN"], "torch_version": "2.9.0"})";
    return j;
}

bool addEntry(zipFile zf, const std::string& name, const void* data, std::size_t size, std::size_t repeat = 1)
{
    zip_fileinfo info {};
    const bool big = size * repeat >= 0xffffffffull;
    if (zipOpenNewFileInZip64(zf, name.c_str(), &info, nullptr, 0, nullptr, 0, nullptr, 0, 0, big ? 1 : 0) != ZIP_OK)
        return false;
    for (std::size_t r = 0; r < repeat; ++r)
        if (zipWriteInFileInZip(zf, data, static_cast<unsigned>(size)) != ZIP_OK)
            return false;
    return zipCloseFileInZip(zf) == ZIP_OK;
}

std::vector<BenchMeasurement> runDumpLoad(const BenchContext& ctx)
{
    const int nodes = ctx.quick ? 2000 : 100000;
    const int weights = ctx.quick ? 4 : 64;
    const std::size_t weightBytes = ctx.quick ? (std::size_t(4) << 20) : (std::size_t(16) << 20); // 64 x 16 MB = 1 GB
    const std::int64_t numel = std::int64_t(weightBytes / 4);
    const std::string path = ctx.workDir + "/bench.pt2";
    const std::string json = modelJson(nodes, weights, numel);

    std::string config = R"({"config": {)";
    for (int w = 0; w < weights; ++w)
        config += (w ? ", " : "") + std::string("\"w") + std::to_string(w) + R"(": {"path_name": "weight_)"
            + std::to_string(w) + R"(", "is_param": true, "use_pickle": false, "tensor_meta": )"
            + tensorMeta(numel, true) + "}";
    config += "}}";

    zipFile zf = zipOpen64(path.c_str(), APPEND_STATUS_CREATE);
    bool ok = zf != nullptr;
    ok = ok && addEntry(zf, "bench/archive_format", "pt2", 3);
    ok = ok && addEntry(zf, "bench/archive_version", "0", 1);
    ok = ok && addEntry(zf, "bench/byteorder", "little", 6);
    ok = ok && addEntry(zf, "bench/models/model.json", json.data(), json.size());
    ok = ok && addEntry(zf, "bench/data/weights/model_weights_config.json", config.data(), config.size());
    std::vector<float> chunk(std::size_t(1) << 18); // 1 MB
    for (std::size_t i = 0; i < chunk.size(); ++i)
        chunk[i] = float(i % 1000) * 0.001f;
    for (int w = 0; w < weights && ok; ++w)
        ok = addEntry(zf, "bench/data/weights/weight_" + std::to_string(w), chunk.data(), chunk.size() * 4,
            weightBytes / (chunk.size() * 4));
    if (zf)
        ok = zipClose(zf, nullptr) == ZIP_OK && ok;
    if (!ok) {
        std::fprintf(stderr, "dump-load: cannot write %s\n", path.c_str());
        return { { "dump.setup_failed", 1, "", "0", false } };
    }

    const double jsonMb = double(json.size()) / (1024.0 * 1024.0);
    const ProcessMeasurement load = runMeasured({ ctx.cliPath, "graph", path, "--load-only" });
    const ProcessMeasurement full = runMeasured({ ctx.cliPath, "graph", path, "--json" });
    const double rssLimit = 4.0 * jsonMb + 64.0;
    char rssTarget[64];
    std::snprintf(rssTarget, sizeof rssTarget, "< %.0f MB", rssLimit);
    std::vector<BenchMeasurement> out;
    out.push_back({ "dump.json_mb", jsonMb, "MB", "", true });
    out.push_back({ "dump.weights_mb", double(weightBytes) * weights / (1024.0 * 1024.0), "MB", "", true });
    out.push_back({ "dump.load_exit", double(load.exitCode), "", "0", load.exitCode == 0 });
    out.push_back({ "dump.load_wall_ms", load.wallMs, "ms", "< 2000 ms", load.exitCode == 0 && load.wallMs < 2000 });
    out.push_back(
        { "dump.load_peak_rss_mb", load.peakRssMb, "MB", rssTarget, load.exitCode == 0 && load.peakRssMb < rssLimit });
    out.push_back({ "dump.graph_json_wall_ms", full.wallMs, "ms", "", full.exitCode == 0 });
    out.push_back({ "dump.graph_json_peak_rss_mb", full.peakRssMb, "MB", "", full.exitCode == 0 });
    return out;
}

} // namespace

PTELENS_REGISTER_BENCHMARK(dumpload, "dump-load",
    "Load a PT2 archive with 100k nodes and 1 GB of raw weights (graph --load-only, graph --json)", runDumpLoad);

} // namespace pte::bench
