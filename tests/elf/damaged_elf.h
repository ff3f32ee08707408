#pragma once
// Programs compiled here and then damaged where the kernel and ld.so never read (the section header
// table, a section, the symbol and hash tables), or where they do (PT_INTERP), for the tests of the
// ELF facts and of what the audit reports of them. ELF64 in this machine's byte order, as gcc
// builds on the machines the tests run on (x86_64, aarch64).
#include <elf.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <string_view>

#include "test_support.h"

namespace imgaudit::test {

// The value of `T` at `offset` of `bytes`, and its overwriting.
template <typename T>
T get(const std::string& bytes, size_t offset) {
  T value;
  EXPECT_LE(offset + sizeof value, bytes.size());
  std::memcpy(&value, bytes.data() + offset, sizeof value);
  return value;
}

template <typename T>
void put(std::string& bytes, size_t offset, T value) {
  ASSERT_LE(offset + sizeof value, bytes.size());
  std::memcpy(&bytes[offset], &value, sizeof value);
}

// A program that the kernel and loader start as any other: it names a RUNPATH, exports a function
// nothing calls (-rdynamic), and carries both hash tables, so each of those tables can be damaged.
inline const char* const kDamageableC = R"(#include <stdio.h>
void exported_unused(void) { puts("never called"); }
int main(void) { puts("started"); return 7; }
)";
inline constexpr int kDamageableExit = 7;
inline const char* const kDamageableFlags = "-rdynamic -Wl,--hash-style=both -Wl,-rpath,/opt/damaged/lib";

// Runs `path` with execve: the exit status, or -errno when the kernel refused to start it (ENOENT for a
// missing interpreter). fork and a close-on-exec pipe carry execve's errno, not posix_spawn: qemu-user, which
// runs the cross-built tests, turns posix_spawn's vfork into a fork, and its exec error then never reaches
// the parent (it sees exit 127).
inline int exec_status(const std::string& path) {
  char* argv[] = {const_cast<char*>(path.c_str()), nullptr};
  char* envp[] = {nullptr};
  int errors[2];
  if (pipe2(errors, O_CLOEXEC) != 0) return -errno;
  pid_t pid = fork();
  if (pid == 0) {
    int out = open("/dev/null", O_WRONLY);
    dup2(out, 1);
    execve(path.c_str(), argv, envp);
    int error = errno;
    (void)!write(errors[1], &error, sizeof error);
    _exit(127);
  }
  close(errors[1]);
  int error = 0;
  ssize_t got = pid > 0 ? read(errors[0], &error, sizeof error) : -1;
  close(errors[0]);
  if (pid < 0) return -EAGAIN;
  int status = 0;
  if (waitpid(pid, &status, 0) != pid) return -ECHILD;
  if (got == sizeof error) return -error;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

inline Elf64_Ehdr elf_header(const std::string& bytes) { return get<Elf64_Ehdr>(bytes, 0); }

// The file offset of section header `index`.
inline size_t section_header_at(const std::string& bytes, size_t index) {
  Elf64_Ehdr eh = elf_header(bytes);
  return eh.e_shoff + index * sizeof(Elf64_Shdr);
}

// The index of the first section of `type` (0 when none).
inline size_t section_of_type(const std::string& bytes, uint32_t type) {
  Elf64_Ehdr eh = elf_header(bytes);
  for (size_t i = 1; i < eh.e_shnum; ++i)
    if (get<Elf64_Shdr>(bytes, section_header_at(bytes, i)).sh_type == type) return i;
  ADD_FAILURE() << "no section of type " << type;
  return 0;
}

inline Elf64_Shdr section_header(const std::string& bytes, uint32_t type) {
  return get<Elf64_Shdr>(bytes, section_header_at(bytes, section_of_type(bytes, type)));
}

// The program header of `type`, and where it is in the file.
inline size_t program_header_at(const std::string& bytes, uint32_t type) {
  Elf64_Ehdr eh = elf_header(bytes);
  for (size_t i = 0; i < eh.e_phnum; ++i) {
    size_t at = eh.e_phoff + i * sizeof(Elf64_Phdr);
    if (get<Elf64_Phdr>(bytes, at).p_type == type) return at;
  }
  ADD_FAILURE() << "no program header of type " << type;
  return 0;
}

// A copy of `bytes` whose PT_INTERP names `interpreter` instead, NUL-padded as the kernel wants it.
inline std::string with_interpreter(std::string bytes, const std::string& interpreter) {
  Elf64_Phdr ph = get<Elf64_Phdr>(bytes, program_header_at(bytes, PT_INTERP));
  EXPECT_LT(interpreter.size(), ph.p_filesz);
  std::string padded = interpreter + std::string(ph.p_filesz - interpreter.size(), '\0');
  bytes.replace(ph.p_offset, ph.p_filesz, padded);
  return bytes;
}

// The file offset of the dynamic symbol named `name`.
inline size_t dynamic_symbol_at(const std::string& bytes, std::string_view name) {
  Elf64_Shdr dynsym = section_header(bytes, SHT_DYNSYM);
  Elf64_Shdr dynstr = get<Elf64_Shdr>(bytes, section_header_at(bytes, dynsym.sh_link));
  for (size_t at = dynsym.sh_offset; at + sizeof(Elf64_Sym) <= dynsym.sh_offset + dynsym.sh_size; at += sizeof(Elf64_Sym)) {
    Elf64_Sym sym = get<Elf64_Sym>(bytes, at);
    if (std::string_view(bytes.data() + dynstr.sh_offset + sym.st_name) == name) return at;
  }
  ADD_FAILURE() << "no dynamic symbol " << name;
  return 0;
}

}  // namespace imgaudit::test
