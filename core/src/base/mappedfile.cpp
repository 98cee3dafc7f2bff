// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "pte/mappedfile.h"

#include "base/mappedfile_p.h"
#include "pte/chunkreader.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <filesystem>
#include <mutex>
#include <random>
#include <string_view>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace pte {

namespace {

/**
 * A live read-only mapping. It keeps its file descriptor open so that writers can copy ranges of it
 * in the kernel (copy_file_range) instead of faulting the pages in and writing them back out.
 */
struct Mapping
{
    void* addr = nullptr;
    std::size_t size = 0;
    int fd = -1;
    ~Mapping();
};

/** Every live Mapping, so that a span can be traced back to the file it views. */
class MappingRegistry
{
public:
    static MappingRegistry& instance()
    {
        static MappingRegistry registry;
        return registry;
    }
    void add(const Mapping* m)
    {
        const std::lock_guard lock(m_mutex);
        m_live.push_back(m);
    }
    void remove(const Mapping* m)
    {
        const std::lock_guard lock(m_mutex);
        m_live.erase(std::remove(m_live.begin(), m_live.end(), m), m_live.end());
    }
    /** The file and offset behind `span` when it lies inside one live mapping. The caller must keep the
     *  owner of `span` alive while it uses the descriptor (it does: the span is being written). */
    bool origin(std::span<const std::uint8_t> span, int* fd, off_t* offset) const
    {
        const std::lock_guard lock(m_mutex);
        const auto begin = reinterpret_cast<std::uintptr_t>(span.data());
        for (const Mapping* m : m_live) {
            const auto base = reinterpret_cast<std::uintptr_t>(m->addr);
            if (m->fd >= 0 && begin >= base && begin - base <= m->size && span.size() <= m->size - (begin - base)) {
                *fd = m->fd;
                *offset = static_cast<off_t>(begin - base);
                return true;
            }
        }
        return false;
    }

private:
    mutable std::mutex m_mutex;
    std::vector<const Mapping*> m_live;
};

Mapping::~Mapping()
{
    MappingRegistry::instance().remove(this);
    if (addr && addr != MAP_FAILED)
        ::munmap(addr, size);
    if (fd >= 0)
        ::close(fd);
}

std::string errnoText() { return std::strerror(errno); }

/** Ranges smaller than this are written from memory: a system call per small tensor costs more than it saves. */
constexpr std::size_t kKernelCopyThreshold = std::size_t(1) << 20;
/** Bytes copied per system call, after each of which writeback of what was copied is started. */
constexpr std::size_t kChunk = std::size_t(64) << 20;

/**
 * Sequential writer of the temporary file. It starts the writeback of every chunk as soon as it is
 * written (sync_file_range), so the final fsync waits only for the tail: disk writes overlap copying
 * instead of following it.
 */
class ChunkedWriter
{
public:
    /** With `startWriteback`, each chunk's writeback starts as soon as it is written (for a save that will
     *  fsync); without, the kernel writes back in its own time, as after cp. */
    ChunkedWriter(int fd, bool startWriteback)
        : m_fd(fd)
        , m_startWriteback(startWriteback)
    { }

    /** Writes one part. A large part that views a mapped file is copied by the kernel from that file
     *  (no page faults, no user-space copy); when the kernel cannot (another file system, an old kernel)
     *  the rest is written from memory. @returns false with errno set on failure. */
    bool write(std::span<const std::uint8_t> part)
    {
        int in = -1;
        off_t inOffset = 0;
        std::size_t done = 0;
        if (part.size() >= kKernelCopyThreshold && MappingRegistry::instance().origin(part, &in, &inOffset)) {
            while (done < part.size()) {
                const ssize_t n =
                    ::copy_file_range(in, &inOffset, m_fd, nullptr, std::min(part.size() - done, kChunk), 0);
                if (n < 0 && errno == EINTR)
                    continue;
                if (n <= 0)
                    break; // EXDEV, EOPNOTSUPP, ENOSYS, a short source...: write the rest from memory
                done += static_cast<std::size_t>(n);
                advance(static_cast<std::size_t>(n));
            }
        }
        while (done < part.size()) {
            const ssize_t n = ::write(m_fd, part.data() + done, std::min(part.size() - done, kChunk));
            if (n < 0) {
                if (errno == EINTR)
                    continue;
                return false;
            }
            done += static_cast<std::size_t>(n);
            advance(static_cast<std::size_t>(n));
        }
        return true;
    }

private:
    void advance(std::size_t n)
    {
        m_written += n;
        if (!m_startWriteback || m_written - m_flushed < kChunk)
            return;
        // Advisory (a failure only leaves the work to the final fsync): start writing this chunk back now, so
        // the disk works while the next chunk is copied. Not waiting here measured faster than keeping a
        // bounded number of chunks in flight (quiet machine, 2 GiB: 1.22-1.53 s against 1.68-1.92 s).
        (void)::sync_file_range(m_fd, off_t(m_flushed), off_t(m_written - m_flushed), SYNC_FILE_RANGE_WRITE);
        m_flushed = m_written;
    }

    int m_fd;
    bool m_startWriteback;
    std::size_t m_written = 0;
    std::size_t m_flushed = 0;
};

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
            ::madvise(addr, size, MADV_WILLNEED);
            auto mapping = std::make_shared<Mapping>();
            mapping->addr = addr;
            mapping->size = size;
            mapping->fd = fd;
            MappingRegistry::instance().add(mapping.get());
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

namespace {

namespace fs = std::filesystem;

/** The temporary file a save writes: its descriptor, flock()ed exclusively while the save runs, and its path when
 *  it has one (a named temporary, or an unnamed one once linked beside the target to be renamed over it). */
class Temporary
{
public:
    Temporary() = default;
    Temporary(const Temporary&) = delete;
    Temporary& operator=(const Temporary&) = delete;
    ~Temporary() { discard(); }

    /** Opens an unnamed file in `dir` (O_TMPFILE); false when the kernel, the file system or a missing /proc
     *  (through which it is linked) does not allow it. */
    bool openUnnamed(const fs::path& dir)
    {
#ifdef O_TMPFILE
        m_fd = ::open(dir.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
        if (m_fd < 0)
            return false;
        lock();
        if (::access(procPath().c_str(), F_OK) == 0)
            return true;
        discard();
#else
        (void)dir;
#endif
        return false;
    }

    /** Creates a named file `prefix` + a random number in `dir`; false with errno set on failure. */
    bool openNamed(const fs::path& dir, const std::string& prefix)
    {
        std::random_device rd;
        for (int attempt = 0; attempt < 100; ++attempt) {
            const fs::path candidate = dir / (prefix + std::to_string(rd()));
            const int fd = ::open(candidate.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
            if (fd < 0) {
                if (errno == EEXIST)
                    continue;
                return false;
            }
            m_fd = fd;
            m_path = candidate;
            lock();
            // Another save's removeStaleTemporaries may have taken the file for debris between the open and the
            // lock, and removed it: then take another name.
            struct stat st
            { };
            if (::fstat(m_fd, &st) == 0 && st.st_nlink > 0)
                return true;
            ::close(m_fd);
            m_fd = -1;
            m_path.clear();
        }
        errno = EEXIST;
        return false;
    }

    [[nodiscard]] int fd() const { return m_fd; }
    [[nodiscard]] bool isNamed() const { return !m_path.empty(); }
    [[nodiscard]] const fs::path& path() const { return m_path; }

    /** Closes the descriptor the data was written through (reporting the errors a close reports, as on NFS) while
     *  keeping the file open, and locked, through a duplicate until the save ends. False with errno set. */
    bool closeWritten()
    {
        const int keeper = ::dup(m_fd);
        if (keeper < 0)
            return false;
        const int rc = ::close(m_fd);
        m_fd = keeper;
        return rc == 0;
    }

    /** Links the unnamed file at `to`; false with errno set (EEXIST when `to` exists). */
    [[nodiscard]] bool linkAt(const fs::path& to) const
    {
        return ::linkat(AT_FDCWD, procPath().c_str(), AT_FDCWD, to.c_str(), AT_SYMLINK_FOLLOW) == 0;
    }

    /** Links the unnamed file beside the target under `prefix` + a random number, so it can be renamed over the
     *  target; false with errno set. */
    bool linkNamed(const fs::path& dir, const std::string& prefix)
    {
        std::random_device rd;
        for (int attempt = 0; attempt < 100; ++attempt) {
            const fs::path candidate = dir / (prefix + std::to_string(rd()));
            if (linkAt(candidate)) {
                m_path = candidate;
                return true;
            }
            if (errno != EEXIST)
                return false;
        }
        errno = EEXIST;
        return false;
    }

    /** The file is in place under the target's name: nothing to remove any more. */
    void committed()
    {
        m_path.clear();
        discard();
    }

    /** Removes the name (if any) and closes the file: a failed save leaves nothing. */
    void discard()
    {
        if (!m_path.empty()) {
            std::error_code ec;
            fs::remove(m_path, ec);
            m_path.clear();
        }
        if (m_fd >= 0)
            ::close(m_fd);
        m_fd = -1;
    }

private:
    /** Held for as long as the file is open (the kernel drops it when the process dies): removeStaleTemporaries
     *  leaves a locked temporary alone. Advisory: where flock is not supported, the cleanup cannot lock either and
     *  removes nothing. */
    void lock() const
    {
        while (::flock(m_fd, LOCK_EX) != 0 && errno == EINTR) { }
    }
    [[nodiscard]] std::string procPath() const { return "/proc/self/fd/" + std::to_string(m_fd); }

    int m_fd = -1;
    fs::path m_path;
};

bool isTemporaryOf(std::string_view name, std::string_view prefix)
{
    if (name.size() <= prefix.size() || name.substr(0, prefix.size()) != prefix)
        return false;
    const auto number = name.substr(prefix.size());
    return std::all_of(number.begin(), number.end(), [](char c) { return c >= '0' && c <= '9'; });
}

fs::path folderOf(const fs::path& target)
{
    fs::path dir = target.parent_path();
    return dir.empty() ? fs::path(".") : dir;
}

bool fileExists(const fs::path& path)
{
    struct stat st
    { };
    return ::stat(path.c_str(), &st) == 0;
}

} // namespace

namespace base {

std::string temporaryPrefix(const std::string& path) { return "." + fs::path(path).filename().string() + ".tmp-"; }

std::size_t removeStaleTemporaries(const std::string& path)
{
    const fs::path dir = folderOf(fs::path(path));
    const std::string prefix = temporaryPrefix(path);
    DIR* d = ::opendir(dir.c_str());
    if (!d)
        return 0;
    const int dirFd = ::dirfd(d);
    std::size_t removed = 0;
    while (const dirent* entry = ::readdir(d)) {
        if (!isTemporaryOf(entry->d_name, prefix))
            continue;
        const int fd = ::openat(dirFd, entry->d_name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
        if (fd < 0)
            continue;
        // Unlocked: the save that wrote it is gone. Removed only if the name still leads to the file locked here.
        struct stat held
        { };
        struct stat now
        { };
        if (::fstat(fd, &held) == 0 && S_ISREG(held.st_mode) && ::flock(fd, LOCK_EX | LOCK_NB) == 0
            && ::fstatat(dirFd, entry->d_name, &now, AT_SYMLINK_NOFOLLOW) == 0 && now.st_dev == held.st_dev
            && now.st_ino == held.st_ino && ::unlinkat(dirFd, entry->d_name, 0) == 0)
            ++removed;
        ::close(fd);
    }
    ::closedir(d);
    return removed;
}

Result<void> writeFileAtomically(const std::string& path, std::span<const std::span<const std::uint8_t>> parts,
    SyncPolicy sync, TemporaryFile temporary)
{
    const fs::path target(path);
    const fs::path dir = folderOf(target);
    const std::string prefix = temporaryPrefix(path);
    // What earlier saves of this target left when they were killed (named temporaries only).
    removeStaleTemporaries(path);

    Temporary tmp;
    if ((temporary != TemporaryFile::Unnamed || !tmp.openUnnamed(dir)) && !tmp.openNamed(dir, prefix))
        return fail(ErrorCode::Io,
            "cannot create a temporary file in " + dir.string() + " to write " + path + ": " + errnoText());
    auto abort = [&](const std::string& what) -> Result<void> {
        const auto msg = errnoText();
        tmp.discard();
        return fail(ErrorCode::Io, "cannot write " + path + ": " + what + ": " + msg);
    };
    ChunkedWriter writer(tmp.fd(), sync == SyncPolicy::Always || fileExists(target));
    for (const auto& part : parts) {
        if (!writer.write(part))
            return abort("write failed");
    }
    // Looked up again right before the file goes in place: a file that appeared meanwhile is protected too.
    bool replacing = fileExists(target);
    if ((sync == SyncPolicy::Always || replacing) && ::fsync(tmp.fd()) != 0)
        return abort("fsync failed");
    if (!tmp.closeWritten())
        return abort("close failed");
    if (!tmp.isNamed()) {
        // A new file is linked in place (link never replaces: one that appeared since is replaced below).
        if (!replacing) {
            if (tmp.linkAt(target)) {
                tmp.committed();
                return {};
            }
            if (errno != EEXIST)
                return abort("cannot link the written file into place");
            replacing = true;
            if (sync != SyncPolicy::Always && ::fsync(tmp.fd()) != 0)
                return abort("fsync failed");
        }
        // Replacing: a name beside the target, renamed over it (rename is atomic, link is not allowed to replace).
        if (!tmp.linkNamed(dir, prefix))
            return abort("cannot link the written file beside the target");
    }
    if (::rename(tmp.path().c_str(), target.c_str()) != 0) {
        const auto msg = errnoText();
        tmp.discard();
        return fail(ErrorCode::Io, "cannot rename the temporary file onto " + path + ": " + msg);
    }
    tmp.committed();
    return {};
}

} // namespace base

Result<void> writeFileAtomically(
    const std::string& path, std::span<const std::span<const std::uint8_t>> parts, SyncPolicy sync)
{
    return base::writeFileAtomically(path, parts, sync, base::TemporaryFile::Unnamed);
}

ChunkReader::ChunkReader(Bytes bytes, std::size_t chunkSize)
    : m_bytes(std::move(bytes))
    , m_chunkSize(std::max<std::size_t>(chunkSize, 4096))
{
    // Views smaller than a chunk cost a page or two of memory: read them in place, without a system call.
    off_t offset = 0;
    if (m_bytes.size() > m_chunkSize && MappingRegistry::instance().origin(m_bytes.span(), &m_fd, &offset))
        m_fileOffset = std::int64_t(offset);
    else
        m_fd = -1;
}

Result<std::span<const std::uint8_t>> ChunkReader::next()
{
    const std::uint64_t left = m_bytes.size() - m_position;
    const auto n = std::size_t(std::min<std::uint64_t>(left, m_chunkSize));
    if (n == 0)
        return std::span<const std::uint8_t>();
    if (m_fd < 0) {
        const auto chunk = m_bytes.span().subspan(std::size_t(m_position), n);
        m_position += n;
        return chunk;
    }
    m_buffer.resize(m_chunkSize);
    std::size_t done = 0;
    while (done < n) {
        const ssize_t r = ::pread(m_fd, m_buffer.data() + done, n - done, off_t(m_fileOffset + m_position + done));
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return fail(ErrorCode::Io,
                "cannot read " + std::to_string(n) + " bytes at offset " + std::to_string(m_fileOffset + m_position)
                    + " of a mapped file: " + (r == 0 ? std::string("unexpected end of file") : errnoText()),
                std::uint64_t(m_fileOffset + m_position));
        done += std::size_t(r);
    }
    m_position += n;
    return std::span<const std::uint8_t>(m_buffer.data(), n);
}

Result<void> writeFileAtomically(const std::string& path, std::span<const std::uint8_t> data, SyncPolicy sync)
{
    const std::span<const std::uint8_t> parts[] = { data };
    return writeFileAtomically(path, parts, sync);
}

} // namespace pte
