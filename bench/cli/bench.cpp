// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "bench.h"

#include <QStandardPaths>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <fcntl.h>
#include <fstream>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace pte::bench {

std::vector<Benchmark>& benchmarkRegistry()
{
    static std::vector<Benchmark> benchmarks;
    return benchmarks;
}

/**
 * Runs argv directly: fork + exec + wait4. The child's ru_maxrss also covers the address space it was
 * forked from (the kernel folds the old mm's high-water mark in at exec), so this is accurate only when
 * the calling process is small; runMeasured() goes through a fresh helper for that reason.
 */
ProcessMeasurement runMeasuredDirect(const std::vector<std::string>& argv)
{
    ProcessMeasurement m;
    if (argv.empty())
        return m;
    std::vector<char*> args;
    for (const auto& a : argv)
        args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    const auto start = std::chrono::steady_clock::now();
    const pid_t pid = ::fork();
    if (pid < 0)
        return m;
    if (pid == 0) {
        const int devnull = ::open("/dev/null", O_WRONLY);
        if (devnull >= 0) {
            ::dup2(devnull, 1);
            ::dup2(devnull, 2);
        }
        ::execv(args[0], args.data());
        ::_exit(127);
    }
    int status = 0;
    struct rusage usage
    { };
    while (::wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) { }
    m.wallMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    m.peakRssMb = double(usage.ru_maxrss) / 1024.0; // ru_maxrss is in KiB on Linux
    m.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return m;
}

namespace {

std::string selfExecutable()
{
    char buf[4096];
    const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
    return n > 0 ? std::string(buf, std::size_t(n)) : std::string();
}

} // namespace

ProcessMeasurement runMeasured(const std::vector<std::string>& argv)
{
    // Measure from a freshly exec'd helper (`ptelens-bench --exec-measured ARGV...`, see main.cpp)
    // so that the peak RSS is the child's own and not this (possibly large) process's.
    const std::string self = selfExecutable();
    int fds[2];
    if (self.empty() || argv.empty() || ::pipe2(fds, O_CLOEXEC) != 0)
        return runMeasuredDirect(argv);
    std::vector<std::string> helper { self, "--exec-measured" };
    helper.insert(helper.end(), argv.begin(), argv.end());
    std::vector<char*> args;
    for (const auto& a : helper)
        args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    const pid_t pid = ::fork();
    if (pid < 0) {
        ::close(fds[0]);
        ::close(fds[1]);
        return runMeasuredDirect(argv);
    }
    if (pid == 0) {
        ::dup2(fds[1], 1);
        const int devnull = ::open("/dev/null", O_WRONLY);
        if (devnull >= 0)
            ::dup2(devnull, 2);
        ::execv(args[0], args.data());
        ::_exit(127);
    }
    ::close(fds[1]);
    std::string text;
    char buf[256];
    for (;;) {
        const ssize_t n = ::read(fds[0], buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        text.append(buf, std::size_t(n));
    }
    ::close(fds[0]);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) { }
    ProcessMeasurement m;
    if (std::sscanf(text.c_str(), "%d %lf %lf", &m.exitCode, &m.wallMs, &m.peakRssMb) != 3)
        return runMeasuredDirect(argv);
    return m;
}

void settleDisk(const BenchContext& ctx)
{
    ::sync();
    if (!ctx.quick)
        std::this_thread::sleep_for(std::chrono::seconds(2));
}

std::string sourceDir(const std::string& cliPath)
{
    std::string dir = cliPath.substr(0, cliPath.rfind('/'));
    for (int up = 0; up < 4 && !dir.empty(); ++up) {
        std::ifstream cache(dir + "/CMakeCache.txt");
        std::string line;
        while (cache && std::getline(cache, line))
            if (line.rfind("CMAKE_HOME_DIRECTORY:INTERNAL=", 0) == 0)
                return line.substr(30);
        dir = dir.substr(0, dir.rfind('/'));
    }
    return {};
}

double median(std::vector<double> v)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

namespace {

// The writer's benchmark cases: `info` on a huge synthetic program and `rewrite` against `cp`.

std::string formatNumber(double v, int decimals)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

struct SynthSize
{
    std::uint64_t instructions;
    std::uint64_t constantBytes;
};

SynthSize synthSize(const BenchContext& ctx)
{
    return ctx.quick ? SynthSize { 2000, std::uint64_t(16) << 20 } : SynthSize { 200000, std::uint64_t(2) << 30 };
}

/** Runs `ptelens-cli synth`; adds a failure measurement and returns false when it fails. */
bool synthesize(
    const BenchContext& ctx, const std::string& prefix, const std::string& path, std::vector<BenchMeasurement>& out)
{
    const auto size = synthSize(ctx);
    const auto m = runMeasured({ ctx.cliPath, "synth", path, "--instructions", std::to_string(size.instructions),
        "--constant-bytes", std::to_string(size.constantBytes) });
    if (m.exitCode != 0) {
        out.push_back({ prefix + ".synth_exit_code", double(m.exitCode), "code", "0", false });
        return false;
    }
    out.push_back({ prefix + ".synth_wall_ms", m.wallMs, "ms", "", true });
    return true;
}

/** program_size from the eh00 header, or the file size without one. */
std::uint64_t programSizeOf(const std::string& path)
{
    std::uint64_t size = 0;
    if (FILE* f = std::fopen(path.c_str(), "rb")) {
        unsigned char head[24] = {};
        if (std::fread(head, 1, sizeof head, f) == sizeof head && std::equal(head + 8, head + 12, "eh00")) {
            for (int i = 0; i < 8; ++i)
                size |= std::uint64_t(head[16 + i]) << (8 * i);
        } else if (std::fseek(f, 0, SEEK_END) == 0) {
            size = std::uint64_t(std::ftell(f));
        }
        std::fclose(f);
    }
    return size;
}

std::vector<BenchMeasurement> benchInfo(const BenchContext& ctx)
{
    std::vector<BenchMeasurement> out;
    const std::string file = ctx.workDir + "/info-synth.pte";
    if (!synthesize(ctx, "info", file, out))
        return out;
    const double flatbufferMb = double(programSizeOf(file)) / (1024.0 * 1024.0);
    std::vector<double> wall;
    std::vector<double> rss;
    runMeasured({ ctx.cliPath, "info", file }); // warm the page cache for the header and flatbuffer
    for (int i = 0; i < 5; ++i) {
        const auto m = runMeasured({ ctx.cliPath, "info", file });
        if (m.exitCode != 0) {
            out.push_back({ "info.exit_code", double(m.exitCode), "code", "0", false });
            return out;
        }
        wall.push_back(m.wallMs);
        rss.push_back(m.peakRssMb);
    }
    const double wallMs = median(wall);
    const double rssMb = *std::max_element(rss.begin(), rss.end());
    const double rssTarget = 64.0 + flatbufferMb;
    out.push_back({ "info.flatbuffer_mb", flatbufferMb, "MB", "", true });
    out.push_back({ "info.wall_ms", wallMs, "ms", "< 100 ms", wallMs < 100.0 });
    out.push_back({ "info.peak_rss_mb", rssMb, "MB", "< " + formatNumber(rssTarget, 1) + " MB (64 + flatbuffer)",
        rssMb < rssTarget });
    return out;
}

std::vector<BenchMeasurement> benchRewrite(const BenchContext& ctx)
{
    std::vector<BenchMeasurement> out;
    const std::string input = ctx.workDir + "/rewrite-in.pte";
    const std::string rewritten = ctx.workDir + "/rewrite-out.pte";
    const std::string copied = ctx.workDir + "/cp-out.pte";
    const QString cp = QStandardPaths::findExecutable(QStringLiteral("cp"));
    const QString sync = QStandardPaths::findExecutable(QStringLiteral("sync"));
    if (cp.isEmpty()) {
        out.push_back({ "rewrite.cp_found", 0, "", "cp in PATH", false });
        return out;
    }
    if (!synthesize(ctx, "rewrite", input, out))
        return out;
    struct stat st
    { };
    const double fileMb = ::stat(input.c_str(), &st) == 0 ? double(st.st_size) / (1024.0 * 1024.0) : 0;
    runMeasured({ cp.toStdString(), input, copied }); // warm the page cache with the input
    // Every measured command starts from the same state: nothing dirty waiting for writeback (the freshly
    // synthesized input and the previous outputs otherwise throttle whichever command runs second).
    settleDisk(ctx);
    std::vector<double> cpMs;
    std::vector<double> cpSyncMs;
    std::vector<double> rewriteMs;
    std::vector<double> rewriteSyncMs;
    for (int i = 0; i < 3; ++i) {
        ::unlink(copied.c_str());
        ::unlink(rewritten.c_str());
        settleDisk(ctx);
        const auto c = runMeasured({ cp.toStdString(), input, copied });
        if (c.exitCode != 0) {
            out.push_back({ "rewrite.cp_exit_code", double(c.exitCode), "code", "0", false });
            return out;
        }
        double syncMs = 0;
        if (!sync.isEmpty())
            syncMs = runMeasured({ sync.toStdString(), copied }).wallMs;
        settleDisk(ctx);
        const auto r = runMeasured({ ctx.cliPath, "rewrite", input, rewritten });
        if (r.exitCode != 0) {
            out.push_back({ "rewrite.exit_code", double(r.exitCode), "code", "0", false });
            return out;
        }
        // The durable form (`--sync`: fsync before the rename), against cp + sync.
        ::unlink(rewritten.c_str());
        settleDisk(ctx);
        const auto rs = runMeasured({ ctx.cliPath, "rewrite", "--sync", input, rewritten });
        if (rs.exitCode != 0) {
            out.push_back({ "rewrite.sync_exit_code", double(rs.exitCode), "code", "0", false });
            return out;
        }
        cpMs.push_back(c.wallMs);
        cpSyncMs.push_back(c.wallMs + syncMs);
        rewriteMs.push_back(r.wallMs);
        rewriteSyncMs.push_back(rs.wallMs);
    }
    ::unlink(copied.c_str());
    ::unlink(rewritten.c_str());
    const double cpMedian = median(cpMs);
    const double cpSyncMedian = median(cpSyncMs);
    const double rewriteMedian = median(rewriteMs);
    const double ratio = rewriteMedian > 0 ? cpMedian / rewriteMedian : 0;
    const double rewriteSyncMedian = median(rewriteSyncMs);
    const double ratioSync = rewriteSyncMedian > 0 ? cpSyncMedian / rewriteSyncMedian : 0;
    out.push_back({ "rewrite.file_mb", fileMb, "MB", "", true });
    out.push_back({ "rewrite.wall_ms", rewriteMedian, "ms", "", true });
    out.push_back(
        { "rewrite.throughput_mb_s", rewriteMedian > 0 ? fileMb * 1000.0 / rewriteMedian : 0, "MB/s", "", true });
    out.push_back({ "rewrite.cp_wall_ms", cpMedian, "ms", "", true });
    out.push_back({ "rewrite.cp_sync_wall_ms", cpSyncMedian, "ms", "", true });
    out.push_back({ "rewrite.vs_cp_ratio", ratio, "x", ">= 0.5 x (cp time / rewrite time)", ratio >= 0.5 });
    out.push_back({ "rewrite.sync_wall_ms", rewriteSyncMedian, "ms", "", true });
    out.push_back({ "rewrite.sync_vs_cp_sync_ratio", ratioSync, "x", ">= 0.5 x (cp + sync time / rewrite --sync time)",
        ratioSync >= 0.5 });
    return out;
}

} // namespace

PTELENS_REGISTER_BENCHMARK(info, "info",
    "ptelens-cli info on a synthetic program (200k instructions, 2 GiB constants): wall time and peak RSS", benchInfo);
PTELENS_REGISTER_BENCHMARK(rewrite, "rewrite",
    "ptelens-cli rewrite vs cp of the same synthetic 2 GiB program (median of 3 runs), and rewrite --sync vs cp + sync",
    benchRewrite);

} // namespace pte::bench
