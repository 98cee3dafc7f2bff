// SPDX-FileCopyrightText: 2026 The ptelens authors
// SPDX-License-Identifier: BSD-3-Clause
#pragma once

#include <memory>
#include <optional>
#include <utility>

namespace pte {

/**
 * An optional T held on the heap, with value semantics (a copy copies the T) and std::optional's interface. For
 * large members that are rarely set: the object holding them stays small, which matters for the hundreds of
 * thousands of values and instructions a large program has (one pointer instead of sizeof(T) each).
 */
template <class T> class Boxed
{
public:
    Boxed() noexcept = default;
    Boxed(std::nullopt_t) noexcept { } // NOLINT(google-explicit-constructor): like std::optional
    Boxed(T value) // NOLINT(google-explicit-constructor): like std::optional
        : m_value(std::make_unique<T>(std::move(value)))
    { }
    Boxed(const Boxed& other)
        : m_value(other.m_value ? std::make_unique<T>(*other.m_value) : nullptr)
    { }
    Boxed(Boxed&&) noexcept = default;
    Boxed& operator=(const Boxed& other)
    {
        if (this != &other)
            m_value = other.m_value ? std::make_unique<T>(*other.m_value) : nullptr;
        return *this;
    }
    Boxed& operator=(Boxed&&) noexcept = default;
    Boxed& operator=(std::nullopt_t) noexcept
    {
        m_value.reset();
        return *this;
    }
    Boxed& operator=(T value)
    {
        if (m_value)
            *m_value = std::move(value);
        else
            m_value = std::make_unique<T>(std::move(value));
        return *this;
    }
    ~Boxed() = default;

    template <class... Args> T& emplace(Args&&... args)
    {
        m_value = std::make_unique<T>(std::forward<Args>(args)...);
        return *m_value;
    }
    void reset() noexcept { m_value.reset(); }

    [[nodiscard]] bool has_value() const noexcept { return m_value != nullptr; }
    explicit operator bool() const noexcept { return has_value(); }
    [[nodiscard]] T& operator*() noexcept { return *m_value; }
    [[nodiscard]] const T& operator*() const noexcept { return *m_value; }
    [[nodiscard]] T* operator->() noexcept { return m_value.get(); }
    [[nodiscard]] const T* operator->() const noexcept { return m_value.get(); }
    /** @throws std::bad_optional_access when empty, like std::optional::value */
    [[nodiscard]] const T& value() const
    {
        if (!m_value)
            throw std::bad_optional_access();
        return *m_value;
    }
    [[nodiscard]] T& value()
    {
        if (!m_value)
            throw std::bad_optional_access();
        return *m_value;
    }

    friend bool operator==(const Boxed& a, const Boxed& b)
    {
        return a.has_value() == b.has_value() && (!a.has_value() || *a == *b);
    }
    friend bool operator==(const Boxed& a, std::nullopt_t) noexcept { return !a.has_value(); }

private:
    std::unique_ptr<T> m_value;
};

} // namespace pte
