// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#include "dump/pickle/unpickler.h"
#include "dumptestutils.h"
#include "errorcheck.h"
#include "testutils.h"

#include <QTest>

#include <cstring>

using namespace pte;
using namespace pte::dump;
using namespace pte::test;
using namespace std::string_literals;

namespace {
Result<Unpickled> load(const std::string& bytes)
{
    return Unpickler::load(
        std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()), "test.pkl");
}
} // namespace

class TestUnpickler : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void readsScalarsAndContainers()
    {
        // {"a": (1, -2, 300, 2**40), "b": [True, None, 1.5], "c": b"xy"} with memo reuse.
        std::string p = "\x80\x02}q\x00("s;
        // "a": ((1, -2, 300), 2**40); the inner tuple is memoized in slot 1.
        p += pk::str("a") + "K\x01" + pk::integer(-2) + "M\x2c\x01" + "\x87q\x01" + "\x8a\x06\x00\x00\x00\x00\x00\x01"s
            + "\x86";
        p += pk::str("b") + "](\x88NG" + std::string("\x3f\xf8\x00\x00\x00\x00\x00\x00", 8) + "e";
        p += pk::str("c") + "C\x02xy";
        p += pk::str("d") + "h\x01";
        p += "u.";
        auto r = load(p);
        QVERIFY_RESULT(r);
        const PickleValue* root = r->root;
        QCOMPARE(root->kind, PickleValue::Kind::Dict);
        QCOMPARE(root->items.size(), std::size_t(8));
        QCOMPARE(root->items[0]->text, std::string("a"));
        const PickleValue* a = root->items[1];
        QCOMPARE(a->kind, PickleValue::Kind::Tuple);
        QCOMPARE(a->items.size(), std::size_t(2));
        const PickleValue* inner = a->items[0];
        QCOMPARE(inner->items.size(), std::size_t(3));
        QCOMPARE(inner->items[0]->intValue, std::int64_t(1));
        QCOMPARE(inner->items[1]->intValue, std::int64_t(-2));
        QCOMPARE(inner->items[2]->intValue, std::int64_t(300));
        QCOMPARE(a->items[1]->intValue, std::int64_t(1) << 40);
        const PickleValue* b = root->items[3];
        QCOMPARE(b->kind, PickleValue::Kind::List);
        QCOMPARE(b->items.size(), std::size_t(3));
        QCOMPARE(b->items[0]->boolValue, true);
        QCOMPARE(b->items[1]->kind, PickleValue::Kind::None);
        QCOMPARE(b->items[2]->floatValue, 1.5);
        QCOMPARE(root->items[5]->kind, PickleValue::Kind::BytesValue);
        QCOMPARE(root->items[5]->text, std::string("xy"));
        QCOMPARE(root->items[7], inner); // memo returns the same object
    }

    void refusesDisallowedGlobals_data()
    {
        QTest::addColumn<QByteArray>("pickle");
        QTest::addColumn<QString>("needle");
        QTest::addColumn<int>("code");
        const auto row = [](const char* name, const std::string& p, const char* needle, ErrorCode code) {
            QTest::addRow("%s", name) << QByteArray(p.data(), static_cast<qsizetype>(p.size()))
                                      << QString::fromLatin1(needle) << int(code);
        };
        row("os-system", "\x80\x02" + pk::global("os", "system") + pk::str("echo hi") + "\x85R.", "'os.system'",
            ErrorCode::Unsupported);
        row("builtins-eval", "\x80\x02" + pk::global("builtins", "eval") + ".", "'builtins.eval'",
            ErrorCode::Unsupported);
        row("fake-tensor-storage-name", "\x80\x02" + pk::global("torch", "NotAStorage") + ".", "'torch.NotAStorage'",
            ErrorCode::Unsupported);
        row("stack-global", std::string("\x80\x04") + "\x8c\x02os\x8c\x06system\x93.", "'os.system'",
            ErrorCode::Unsupported);
        row("inst-opcode", "\x80\x02(ios\nsystem\n.", "INST", ErrorCode::Unsupported);
        row("newobj-opcode", std::string("\x80\x02N)\x81."), "NEWOBJ", ErrorCode::Unsupported);
        row("truncated-string",
            "\x80\x02X\x10\x00\x00\x00"
            "abc"s,
            "truncated", ErrorCode::Truncated);
        row("no-stop", "\x80\x02K\x01", "STOP", ErrorCode::Truncated);
        row("empty", "", "STOP", ErrorCode::Truncated);
        row("stack-underflow", "\x80\x02R.", "REDUCE", ErrorCode::InvalidInput);
        row("bad-memo", "\x80\x02h\x05.", "memo slot 5", ErrorCode::InvalidInput);
        row("setitem-on-list", "\x80\x02]K\x01K\x02s.", "not a dict", ErrorCode::InvalidInput);
        row("bad-persid", "\x80\x02" + pk::str("x") + "Q.", "persistent id", ErrorCode::InvalidInput);
        row("protocol-9", "\x80\x09N.", "protocol 9", ErrorCode::Unsupported);
    }

    void refusesDisallowedGlobals()
    {
        QFETCH(QByteArray, pickle);
        QFETCH(QString, needle);
        QFETCH(int, code);
        const auto r = load(pickle.toStdString());
        QVERIFY_ERROR(r, ErrorCode(code), needle.toStdString(), "test.pkl");
    }

    void survivesSelfReferenceAndGarbage()
    {
        // A list that contains itself: no leak, no crash (values live in an arena).
        auto r = load("\x80\x02]q\x00h\x00"
                      "a."s);
        QVERIFY_RESULT(r);
        QCOMPARE(r->root->items.size(), std::size_t(1));
        QCOMPARE(r->root->items[0], r->root);
        // Deterministic pseudo-random bytes never crash.
        std::uint32_t seed = 12345;
        for (int round = 0; round < 300; ++round) {
            std::string bytes = "\x80\x02";
            for (int i = 0; i < 64; ++i) {
                seed = seed * 1103515245u + 12345u;
                bytes.push_back(static_cast<char>((seed >> 16) & 0xff));
            }
            const auto g = load(bytes);
            if (g)
                QVERIFY(g->root != nullptr);
            // The lenient mode (sample inputs) survives the same garbage.
            UnpickleOptions lenient;
            lenient.opaqueObjects = true;
            const auto o = Unpickler::load(
                std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()),
                "test.pkl", lenient);
            if (o)
                QVERIFY(o->root != nullptr);
        }
    }

    void rebuildsTensorsSharingStorage()
    {
        // Two views of one 6-element storage (tied weights): "w" = [2, 3], "row1" = the second row.
        const std::vector<float> values { 1.f, 2.f, 3.f, 4.f, 5.f, 6.f };
        const std::string pickle = stateDictPickle({
            { "w", "FloatStorage", "0", 6, { 2, 3 }, { 3, 1 }, 0, true },
            { "row1", "FloatStorage", "0", 6, { 3 }, { 1 }, 3, false },
            { "steps", "LongStorage", "1", 1, {}, {}, 0, false },
        });
        std::int64_t seven = 7;
        const QByteArray zip = torchSaveZip(
            pickle, { { "0", floatBytes(values) }, { "1", QByteArray(reinterpret_cast<const char*>(&seven), 8) } });
        QVERIFY(!zip.isEmpty());
        const Bytes bytes = Bytes::copyOf(std::string_view(zip.constData(), static_cast<std::size_t>(zip.size())));
        auto r = readTorchSave(bytes, "sd.pt", std::uint64_t(1) << 30);
        QVERIFY_RESULT(r);
        QCOMPARE(r->size(), std::size_t(3));
        const auto& w = (*r)[0];
        const auto& row1 = (*r)[1];
        const auto& steps = (*r)[2];
        QCOMPARE(w.key, std::string("w"));
        QCOMPARE(w.tensor.meta.dtype, ScalarType::Float);
        QCOMPARE(w.tensor.meta.sizes.size(), std::size_t(2));
        QCOMPARE(*w.tensor.meta.sizes[0].value, std::int64_t(2));
        QCOMPARE(*w.tensor.meta.strides[0].value, std::int64_t(3));
        QVERIFY(w.tensor.isParameter);
        QVERIFY(!row1.tensor.isParameter);
        QCOMPARE(w.tensor.data.size(), std::size_t(24));
        QCOMPARE(row1.tensor.data.size(), std::size_t(12));
        // Same storage: the row is a view 12 bytes into the weight's bytes, inside the archive bytes.
        QCOMPARE(row1.tensor.data.data(), w.tensor.data.data() + 12);
        QVERIFY(w.tensor.data.data() >= bytes.data() && w.tensor.data.data() < bytes.data() + bytes.size());
        float f = 0;
        std::memcpy(&f, row1.tensor.data.data(), 4);
        QCOMPARE(f, 4.f);
        QCOMPARE(steps.tensor.meta.dtype, ScalarType::Long);
        std::int64_t s = 0;
        std::memcpy(&s, steps.tensor.data.data(), 8);
        QCOMPARE(s, std::int64_t(7));
        QCOMPARE(w.tensor.source, std::string("sd.pt:archive/data/0"));
    }

    void rejectsTensorsOutsideTheirStorage_data()
    {
        QTest::addColumn<int>("numel");
        QTest::addColumn<int>("offset");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("needle");
        QTest::addRow("view-past-storage") << 6 << 4 << int(ErrorCode::OutOfRange) << "past the end of its storage";
        QTest::addRow("storage-bigger-than-entry")
            << 60 << 0 << int(ErrorCode::Truncated) << "fewer than the 60 elements";
    }

    void rejectsTensorsOutsideTheirStorage()
    {
        QFETCH(int, numel);
        QFETCH(int, offset);
        QFETCH(int, code);
        QFETCH(QString, needle);
        const std::string pickle = stateDictPickle({ { "w", "FloatStorage", "0", numel, { 2, 3 }, { 3, 1 }, offset } });
        const QByteArray zip = torchSaveZip(pickle, { { "0", floatBytes({ 1, 2, 3, 4, 5, 6 }) } });
        const Bytes bytes = Bytes::copyOf(std::string_view(zip.constData(), static_cast<std::size_t>(zip.size())));
        const auto r = readTorchSave(bytes, "sd.pt", std::uint64_t(1) << 30);
        QVERIFY_ERROR(r, ErrorCode(code), needle.toStdString());
    }

    void readsFakeTensorsAndProtocol2Bytes()
    {
        // (fake parameter, b'', b'\xe9\x00\xff'): bytes spelled the protocol-2 way (_codecs.encode / bytes()).
        const std::string meta = "{\"dtype\": 7, \"sizes\": [{\"as_int\": 2}], \"note\": \"\xc3\xa9\"}";
        const std::string p = "\x80\x02" + pk::fakeTensor(meta, true) + pk::global("__builtin__", "bytes") + ")R"
            + pk::bytesObject(std::string("\xe9\x00\xff", 3)) + "\x87.";
        auto r = load(p);
        QVERIFY_RESULT(r);
        QCOMPARE(r->root->kind, PickleValue::Kind::Tuple);
        QCOMPARE(r->root->items.size(), std::size_t(3));
        const PickleValue* fake = r->root->items[0];
        QCOMPARE(fake->kind, PickleValue::Kind::Tensor);
        QVERIFY(fake->fake);
        QVERIFY(fake->isParameter);
        QVERIFY(fake->storage == nullptr);
        QCOMPARE(fake->text, meta); // the JSON bytes, byte for byte (UTF-8 inside survives the latin-1 trip)
        QCOMPARE(r->root->items[1]->kind, PickleValue::Kind::BytesValue);
        QCOMPARE(r->root->items[1]->text, std::string());
        QCOMPARE(r->root->items[2]->text, std::string("\xe9\x00\xff", 3));

        // ExecuTorch's copy of the reducer is accepted too; the name must be exact.
        const std::string et = "\x80\x02"
            + pk::global("executorch.exir.serde.export_serialize", "_reconstruct_fake_tensor") + pk::bytesObject("{}")
            + "\x89\x86R.";
        auto e = load(et);
        QVERIFY_RESULT(e);
        QVERIFY(e->root->fake);
        QVERIFY(!e->root->isParameter);
        const auto wrong = load("\x80\x02" + pk::global("torch._subclasses.fake_tensor", "_reconstruct_fake_tensor")
            + pk::bytesObject("{}") + "\x89\x86R.");
        QVERIFY(!wrong);
        QCOMPARE(wrong.error().code, ErrorCode::Unsupported);
        // _codecs.encode is only the bytes spelling: another codec is refused.
        const auto codec =
            load("\x80\x02" + pk::global("_codecs", "encode") + pk::str("x") + pk::str("rot13") + "\x86R.");
        QVERIFY_ERROR(codec, ErrorCode::Unsupported, "_codecs.encode");
        // A fake tensor needs its JSON bytes.
        const auto noBytes = load("\x80\x02" + pk::global("torch._export.serde.serialize", "_reconstruct_fake_tensor")
            + pk::str("{}") + "\x89\x86R.");
        QVERIFY(!noBytes);
        QCOMPARE(noBytes.error().code, ErrorCode::InvalidInput);
    }

    void opaqueModeKeepsUnknownObjects()
    {
        // (torch.device('cpu'), mymod.Thing.__new__(mymod.Thing) with state {})
        const std::string p = "\x80\x02" + pk::global("torch", "device") + pk::str("cpu") + "\x85R"
            + pk::global("mymod", "Thing") + ")\x81}b" + "\x86.";
        const auto strict = load(p);
        QVERIFY_ERROR(strict, ErrorCode::Unsupported, "'torch.device'");
        UnpickleOptions lenient;
        lenient.opaqueObjects = true;
        const auto r = Unpickler::load(
            std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(p.data()), p.size()), "t.pkl", lenient);
        QVERIFY_RESULT(r);
        QCOMPARE(r->root->items.size(), std::size_t(2));
        QCOMPARE(r->root->items[0]->kind, PickleValue::Kind::Opaque);
        QCOMPARE(r->root->items[0]->text, std::string("torch.device"));
        QCOMPARE(r->root->items[1]->kind, PickleValue::Kind::Opaque);
        QCOMPARE(r->root->items[1]->text, std::string("mymod.Thing"));
        // Opcodes outside torch.save's set stay refused in either mode.
        const std::string inst = "\x80\x02(ios\nsystem\n.";
        const auto i = Unpickler::load(
            std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(inst.data()), inst.size()), "t.pkl",
            lenient);
        QVERIFY_ERROR(i, ErrorCode::Unsupported, "INST");
    }

    void resolvesSingleTensorArchives()
    {
        // torch.save(nn.Parameter(...)): the root is the tensor itself.
        const std::string pickle =
            "\x80\x02" + tensorPickle({ "", "FloatStorage", "7", 4, { 2, 2 }, { 1, 2 }, 0, true }) + ".";
        const QByteArray zip = torchSaveZip(pickle, { { "7", floatBytes({ 1.f, 2.f, 3.f, 4.f }) } });
        const Bytes bytes = Bytes::copyOf(std::string_view(zip.constData(), static_cast<std::size_t>(zip.size())));
        auto reader = TorchSaveReader::open(bytes, "p.pt", std::uint64_t(1) << 30);
        QVERIFY_RESULT(reader);
        QCOMPARE(reader->root()->kind, PickleValue::Kind::Tensor);
        auto t = reader->tensor(reader->root(), "p");
        QVERIFY_RESULT(t);
        QVERIFY(t->tensor.isParameter);
        QVERIFY(!t->tensor.fake);
        QCOMPARE(*t->tensor.meta.strides[1].value, std::int64_t(2));
        QCOMPARE(t->tensor.data.size(), std::size_t(16));
        QCOMPARE(t->tensor.source, std::string("p.pt:archive/data/7"));
        // Column-major [2, 2]: logical order reads 1, 3, 2, 4.
        QCOMPARE(*tensorElements(t->tensor, 8), (std::vector<double> { 1, 3, 2, 4 }));
        QVERIFY(!tensorElements(t->tensor, 3)); // over the limit
        const auto notTensor = reader->tensor(nullptr, "x");
        QVERIFY_ERROR(notTensor, ErrorCode::InvalidInput, "'x' is not a tensor");
    }

    void boundsSharedContainerExpansion()
    {
        // t0 = (None, None), t_i = (t_{i-1}, t_{i-1}): 2^32 paths through 32 levels of shared tuples.
        std::string p = "\x80\x02NN\x86q\x00"s;
        for (int i = 1; i < 31; ++i)
            p += "h" + std::string(1, char(i - 1)) + "h" + std::string(1, char(i - 1)) + "\x86q"
                + std::string(1, char(i));
        p += ".";
        const QByteArray zip = torchSaveZip(p, {});
        const Bytes bytes = Bytes::copyOf(std::string_view(zip.constData(), static_cast<std::size_t>(zip.size())));
        const auto r = readTorchSave(bytes, "dag.pt", std::uint64_t(1) << 30);
        QVERIFY_ERROR(r, ErrorCode::InvalidInput, "dag.pt: the pickle's containers expand to more than 1048576 values");
    }

    void rejectsMissingStorageEntry()
    {
        const std::string pickle = stateDictPickle({ { "w", "FloatStorage", "9", 1, { 1 }, { 1 } } });
        const QByteArray zip = torchSaveZip(pickle, {});
        const Bytes bytes = Bytes::copyOf(std::string_view(zip.constData(), static_cast<std::size_t>(zip.size())));
        const auto r = readTorchSave(bytes, "sd.pt", std::uint64_t(1) << 30);
        QVERIFY_ERROR(r, ErrorCode::InvalidInput, "archive/data/9");
    }
};

QTEST_GUILESS_MAIN(TestUnpickler)
#include "tst_unpickler.moc"
