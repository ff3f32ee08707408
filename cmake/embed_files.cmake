# Writes OUT: a C++ file defining VAR, every DIR/GLOB file as {file name, its bytes}. The bytes are written as
# \xNN escapes, 32 a line, so the text is the file's byte for byte whatever it holds (quotes, backslashes, a
# line end the compiler would translate); the literal's own NUL ends it. VAR_digest is the sha256 of a line
# of each file's name and a line of its bytes in hex, in file order: which set of files was compiled in, known
# without reading them at run time.
file(GLOB files ${DIR}/${GLOB})
list(SORT files)
set(body "")
set(digested "")
foreach(f ${files})
  file(READ ${f} hex HEX)
  get_filename_component(name ${f} NAME)
  string(APPEND digested "${name}\n${hex}\n")
  string(REGEX REPLACE "(................................................................)" "\\1\"\n   \"" hex "${hex}")
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "\\\\x\\1" text "${hex}")
  string(APPEND body "  {\"${name}\",\n   \"${text}\"},\n")
endforeach()
string(SHA256 digest "${digested}")
file(WRITE ${OUT}.tmp "#include <utility>\n#include <vector>\nnamespace imgaudit {\nextern const std::vector<std::pair<const char*, const char*>> ${VAR} = {\n${body}};\nextern const char* const ${VAR}_digest = \"${digest}\";\n}\n")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
