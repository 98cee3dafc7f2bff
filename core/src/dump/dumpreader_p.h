// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

// Private to the graph-dump reader: what its parts share. readDump (dumpreader.cpp) recognises the container and
// hands it to one reader (pt2archive.cpp, legacyzip.cpp, etrecord.cpp, barejson.cpp); each reads its programs with
// the exported-program decoder (exportedprogramdecoder.h), then the weights (weights.cpp) and sample inputs
// (sampleinputs.cpp) stored beside them.

#include "dump/pickle/unpickler.h"
#include "dump/zip/ziparchive.h"
#include "pte/dumpreader.h"
#include "pte/graph.h"

#include <cstdint>
#include <memory>
#include <string>

namespace pte::dump {

// Weights (weights.cpp).

/** Fails when a weight's sizes and strides reach past its payload. Symbolic shapes are not checked. */
Result<void> checkWeightExtent(const WeightTensor& w, const std::string& fqn);
/** Lists in ep.missingWeights the parameters, buffers and constants of the signature that have no weight. */
void computeMissingWeights(ExportedProgram& ep);
/** Reads the weights a PT2 2.9+ PayloadConfig entry (`<folder>/<model>_*_config.json`) describes. */
Result<void> loadPayloadConfig(const ZipArchive& zip, const ZipEntry& configEntry, const std::string& folder,
    ExportedProgram& ep, Diagnostics& diags, std::uint64_t maxEntrySize);
/** Reads a torch.save'd state dict (or constants, when `constants`) into ep.weights. */
Result<void> loadPickledWeights(const ZipArchive& zip, const ZipEntry& e, ExportedProgram& ep,
    std::uint64_t maxEntrySize, bool constants, Diagnostics& diags);

// Sample inputs (sampleinputs.cpp).

/**
 * Reads a sample/example-inputs entry (a torch.save of (args, kwargs)). A 0-byte entry means none. Sample
 * inputs are informative: an unreadable entry or leaf is a warning, never a failure of the whole dump.
 */
void loadSampleInputs(
    const ZipArchive& zip, const ZipEntry& e, ExportedProgram& ep, std::uint64_t maxEntrySize, Diagnostics& diags);

/** How a pickled value reads in a message: "tuple", "reference to torch.Size", ... */
std::string pickleKindName(const PickleValue& v);

// Shared by the container readers (dumpreader.cpp).

/** Moves `diags` to the end of the set's diagnostics. */
void collectDiagnostics(DumpSet& set, Diagnostics& diags);
/** Decodes one zip entry holding an exported program's JSON. */
Result<std::shared_ptr<ExportedProgram>> readProgramEntry(
    const ZipArchive& zip, const ZipEntry& e, Diagnostics& diags, std::uint64_t maxEntrySize);

// The containers, one file each.

/** A torch.export.save PT2 archive: models/<name>.json, data/weights, data/constants, data/sample_inputs. */
Result<void> readPt2(const ZipArchive& zip, DumpSet& set, const DumpReadOptions& opt);
/** The torch 2.1-2.3 zip: serialized_exported_program.json, serialized_state_dict.pt, ... */
Result<void> readLegacy(const ZipArchive& zip, DumpSet& set, const DumpReadOptions& opt);
/** An ETRecord: the edge-dialect programs (the methods), other recorded programs and the debug maps. */
Result<void> readEtRecord(const ZipArchive& zip, DumpSet& set, const DumpReadOptions& opt);
/** One exported program's JSON text, without weights (`text` starts with '{' after white space). */
Result<void> readBareJson(std::string_view text, DumpSet& set, const DumpReadOptions& opt);

} // namespace pte::dump
