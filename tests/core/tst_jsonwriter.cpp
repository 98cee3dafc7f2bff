// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
// The streaming JSON writer behind `ptelens-cli dump --json`: the same text nlohmann::json::dump prints for the same
// document (pretty and on one line), strings escaped and made valid UTF-8, and the text handed over in chunks.
#include "ptefile/jsonwriter.h"

#include <QTest>

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

using pte::ptefile::JsonWriter;
using Json = nlohmann::ordered_json;

namespace {

std::string write(int indent, const std::function<void(JsonWriter&)>& fill, std::size_t* chunks = nullptr)
{
    std::string out;
    {
        JsonWriter w(
            [&](std::string_view c) {
                out.append(c);
                if (chunks)
                    ++*chunks;
            },
            indent);
        fill(w);
        w.flush();
    }
    return out;
}

/** {"a": 1, "b": [true, null, -2.25, "x\n\"y\""], "c": {}, "d": [], "e": {"f": [[], {"g": 0.1}]}, "h":
 * 18446744073709551615} */
void fillSample(JsonWriter& w)
{
    w.beginObject();
    w.member("a", std::int64_t(1));
    w.key("b");
    w.beginArray();
    w.value(true);
    w.null();
    w.value(-2.25);
    w.value("x\n\"y\"");
    w.endArray();
    w.key("c");
    w.beginObject();
    w.endObject();
    w.key("d");
    w.beginArray();
    w.endArray();
    w.key("e");
    w.beginObject();
    w.key("f");
    w.beginArray();
    w.beginArray();
    w.endArray();
    w.beginObject();
    w.member("g", 0.1);
    w.endObject();
    w.endArray();
    w.endObject();
    w.member("h", std::numeric_limits<std::uint64_t>::max());
    w.endObject();
}

Json sample()
{
    Json j = Json::object();
    j["a"] = 1;
    j["b"] = Json::array({ true, nullptr, -2.25, "x\n\"y\"" });
    j["c"] = Json::object();
    j["d"] = Json::array();
    j["e"] = Json::object({ { "f", Json::array({ Json::array(), Json::object({ { "g", 0.1 } }) }) } });
    j["h"] = std::numeric_limits<std::uint64_t>::max();
    return j;
}

} // namespace

class TestJsonWriter : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void printsLikeNlohmann_data()
    {
        QTest::addColumn<int>("indent");
        QTest::addRow("pretty") << 2;
        QTest::addRow("four spaces") << 4;
        QTest::addRow("one line") << -1;
    }
    void printsLikeNlohmann()
    {
        QFETCH(int, indent);
        QCOMPARE(write(indent, fillSample), sample().dump(indent));
    }

    void escapesAndRepairsStrings_data()
    {
        QTest::addColumn<QByteArray>("in");
        QTest::addColumn<QByteArray>("out");
        QTest::addRow("controls") << QByteArray("a\tb\x01", 4) << QByteArray("\"a\\tb\\u0001\"");
        QTest::addRow("quote and backslash") << QByteArray("\"\\") << QByteArray("\"\\\"\\\\\"");
        QTest::addRow("utf-8 kept") << QByteArray("\xc3\xa9\xe2\x82\xac") << QByteArray("\"\xc3\xa9\xe2\x82\xac\"");
        QTest::addRow("stray continuation") << QByteArray("a\x80z") << QByteArray("\"a\xef\xbf\xbdz\"");
        QTest::addRow("overlong") << QByteArray("\xc0\xaf") << QByteArray("\"\xef\xbf\xbd\xef\xbf\xbd\"");
        QTest::addRow("surrogate") << QByteArray("\xed\xa0\x80")
                                   << QByteArray("\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"");
        QTest::addRow("cut sequence") << QByteArray("\xe2\x82") << QByteArray("\"\xef\xbf\xbd\xef\xbf\xbd\"");
    }
    void escapesAndRepairsStrings()
    {
        QFETCH(QByteArray, in);
        QFETCH(QByteArray, out);
        const std::string text = write(2, [&](JsonWriter& w) { w.value(std::string_view(in.constData(), in.size())); });
        QCOMPARE(QByteArray::fromStdString(text), out);
        QVERIFY(!Json::parse(text, nullptr, false).is_discarded());
    }

    void doublesReadBackExactly_data()
    {
        QTest::addColumn<double>("value");
        QTest::addRow("integral") << 3.0;
        QTest::addRow("tenth") << 0.1;
        QTest::addRow("tiny") << 5e-324;
        QTest::addRow("huge") << 1.7976931348623157e308;
        QTest::addRow("negative") << -1234.5678;
    }
    void doublesReadBackExactly()
    {
        QFETCH(double, value);
        const std::string text = write(-1, [&](JsonWriter& w) { w.value(value); });
        const Json j = Json::parse(text, nullptr, false);
        QVERIFY2(j.is_number_float(), text.c_str()); // "3.0", not "3": still a double
        QCOMPARE(j.get<double>(), value);
    }

    void handsTextOverInChunks()
    {
        std::size_t chunks = 0;
        const std::string text = write(
            2,
            [](JsonWriter& w) {
                w.beginArray();
                for (int i = 0; i < 100000; ++i)
                    w.value(std::int64_t(i));
                w.endArray();
            },
            &chunks);
        QVERIFY(text.size() > 500000);
        QVERIFY2(chunks >= text.size() / (std::size_t(64) << 10), std::to_string(chunks).c_str());
        QCOMPARE(Json::parse(text).size(), std::size_t(100000));
    }
};

QTEST_GUILESS_MAIN(TestJsonWriter)
#include "tst_jsonwriter.moc"
