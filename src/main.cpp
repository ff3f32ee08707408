#include "app/cli.h"

int main(int argc, char** argv) { return imgaudit::run_cli(argc, argv); }
