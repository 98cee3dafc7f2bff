// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "pte/mappedfile.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <random>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace pte {

namespace {

struct Mapping
{
    void* addr = nullptr;
    std::size_t size = 0;
    ~Mapping()
    {
        if (addr && addr != MAP_FAILED)
            ::munmap(addr, size);
    }
};

std::string errnoText() { return std::strerror(errno); }

} // namespace

Result<Bytes> mapFile(const std::string& path)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return fail(ErrorCode::Io, "cannot open " + path + ": " + errnoText());
    struct stat st
    { };
    if (::fstat(fd, &st) != 0) {
        const auto msg = errnoText();
        ::close(fd);
        return fail(ErrorCode::Io, "cannot stat " + path + ": " + msg);
    }
    if (S_ISDIR(st.st_mode)) {
        ::close(fd);
        return fail(ErrorCode::Io, path + " is a directory");
    }
    const auto size = static_cast<std::size_t>(st.st_size);
    if (S_ISREG(st.st_mode) && size > 0) {
        void* addr = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (addr != MAP_FAILED) {
            ::close(fd);
            ::madvise(addr, size, MADV_WILLNEED);
            auto mapping = std::make_shared<Mapping>();
            mapping->addr = addr;
            mapping->size = size;
            return Bytes(mapping, std::span<const std::uint8_t>(static_cast<const std::uint8_t*>(addr), size));
        }
    }
    // Fallback: read (empty files, pipes, file systems without mmap).
    std::vector<std::uint8_t> data;
    std::uint8_t buf[1 << 16];
    for (;;) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            const auto msg = errnoText();
            ::close(fd);
            return fail(ErrorCode::Io, "cannot read " + path + ": " + msg);
        }
        if (n == 0)
            break;
        data.insert(data.end(), buf, buf + n);
    }
    ::close(fd);
    return Bytes::fromVector(std::move(data));
}

Result<void> writeFileAtomically(const std::string& path, std::span<const std::span<const std::uint8_t>> parts)
{
    namespace fs = std::filesystem;
    const fs::path target(path);
    fs::path dir = target.parent_path();
    if (dir.empty())
        dir = ".";
    std::random_device rd;
    const fs::path tmp = dir / ("." + target.filename().string() + ".tmp-" + std::to_string(rd()));
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0)
        return fail(ErrorCode::Io,
            "cannot create a temporary file in " + dir.string() + " to write " + path + ": " + errnoText());
    auto abort = [&](const std::string& what) -> Result<void> {
        const auto msg = errnoText();
        ::close(fd);
        std::error_code ec;
        fs::remove(tmp, ec);
        return fail(ErrorCode::Io, "cannot write " + path + ": " + what + ": " + msg);
    };
    for (const auto& part : parts) {
        const std::uint8_t* p = part.data();
        std::size_t left = part.size();
        while (left > 0) {
            const ssize_t n = ::write(fd, p, std::min<std::size_t>(left, std::size_t(1) << 30));
            if (n < 0) {
                if (errno == EINTR)
                    continue;
                return abort("write failed");
            }
            p += n;
            left -= static_cast<std::size_t>(n);
        }
    }
    if (::fsync(fd) != 0)
        return abort("fsync failed");
    if (::close(fd) != 0) {
        std::error_code ec;
        fs::remove(tmp, ec);
        return fail(ErrorCode::Io, "cannot write " + path + ": close failed: " + errnoText());
    }
    if (::rename(tmp.c_str(), target.c_str()) != 0) {
        const auto msg = errnoText();
        std::error_code ec;
        fs::remove(tmp, ec);
        return fail(ErrorCode::Io, "cannot rename the temporary file onto " + path + ": " + msg);
    }
    return {};
}

Result<void> writeFileAtomically(const std::string& path, std::span<const std::uint8_t> data)
{
    const std::span<const std::uint8_t> parts[] = { data };
    return writeFileAtomically(path, parts);
}

} // namespace pte
