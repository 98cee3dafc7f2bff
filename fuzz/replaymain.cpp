// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The main() of a fuzz target built without libFuzzer (the normal compiler, `make test`): each argument, a file or
// a folder (its files, recursively, in name order), is one input to LLVMFuzzerTestOneInput; without arguments,
// stdin is. So the targets compile in every build, and their seed corpora run through them as a test.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

namespace fs = std::filesystem;

int runOne(std::istream& in)
{
    const std::vector<char> bytes { std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>() };
    return LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
}

} // namespace

int main(int argc, char** argv)
{
    if (argc < 2) {
        runOne(std::cin);
        std::cout << "ran 1 input (stdin)\n";
        return 0;
    }
    std::vector<fs::path> files;
    for (int i = 1; i < argc; ++i) {
        const fs::path arg(argv[i]);
        std::error_code ec;
        if (fs::is_directory(arg, ec)) {
            std::vector<fs::path> inside;
            for (const auto& entry : fs::recursive_directory_iterator(arg, ec))
                if (entry.is_regular_file())
                    inside.push_back(entry.path());
            std::sort(inside.begin(), inside.end());
            files.insert(files.end(), inside.begin(), inside.end());
        } else if (fs::is_regular_file(arg, ec)) {
            files.push_back(arg);
        } else {
            std::cerr << argv[0] << ": " << arg.string() << " is neither a file nor a folder\n";
            return 2;
        }
    }
    for (const auto& path : files) {
        std::ifstream in(path, std::ios::binary);
        if (!in) {
            std::cerr << argv[0] << ": cannot read " << path.string() << "\n";
            return 2;
        }
        runOne(in);
    }
    std::cout << "ran " << files.size() << " inputs\n";
    return 0;
}
