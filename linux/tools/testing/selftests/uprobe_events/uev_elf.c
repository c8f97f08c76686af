// SPDX-License-Identifier: GPL-2.0
/*
 * uprobe_events test helpers: symbol addresses and file offsets from the
 * symbol table of a 32 or 64-bit ELF file.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/elf.h>

#include "uev_lib.h"

static int elf64_lookup(const unsigned char *img, size_t size,
			const char *name, struct uev_sym *sym)
{
	const struct elf64_hdr *eh = (const void *)img;
	const struct elf64_shdr *sh;
	const struct elf64_phdr *ph;
	int i, j;

	if (size < sizeof(*eh) ||
	    eh->e_shoff + (size_t)eh->e_shnum * sizeof(*sh) > size ||
	    eh->e_phoff + (size_t)eh->e_phnum * sizeof(*ph) > size)
		return -ENOEXEC;
	sh = (const void *)(img + eh->e_shoff);
	ph = (const void *)(img + eh->e_phoff);
	sym->vaddr = 0;
	for (i = 0; i < eh->e_shnum && !sym->vaddr; i++) {
		const struct elf64_sym *st = (const void *)(img + sh[i].sh_offset);
		const char *str;
		size_t nsyms;

		if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh->e_shnum)
			continue;
		str = (const char *)img + sh[sh[i].sh_link].sh_offset;
		nsyms = sh[i].sh_size / sizeof(*st);
		for (j = 0; j < (int)nsyms; j++) {
			if (!strcmp(str + st[j].st_name, name)) {
				sym->vaddr = st[j].st_value;
				break;
			}
		}
	}
	if (!sym->vaddr)
		return -ENOENT;
	for (i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type == PT_LOAD && sym->vaddr >= ph[i].p_vaddr &&
		    sym->vaddr < ph[i].p_vaddr + ph[i].p_filesz) {
			sym->foff = sym->vaddr - ph[i].p_vaddr + ph[i].p_offset;
			return 0;
		}
	}
	return -ERANGE;
}

static int elf32_lookup(const unsigned char *img, size_t size,
			const char *name, struct uev_sym *sym)
{
	const struct elf32_hdr *eh = (const void *)img;
	const struct elf32_shdr *sh;
	const struct elf32_phdr *ph;
	int i, j;

	if (size < sizeof(*eh) ||
	    eh->e_shoff + (size_t)eh->e_shnum * sizeof(*sh) > size ||
	    eh->e_phoff + (size_t)eh->e_phnum * sizeof(*ph) > size)
		return -ENOEXEC;
	sh = (const void *)(img + eh->e_shoff);
	ph = (const void *)(img + eh->e_phoff);
	sym->vaddr = 0;
	for (i = 0; i < eh->e_shnum && !sym->vaddr; i++) {
		const struct elf32_sym *st = (const void *)(img + sh[i].sh_offset);
		const char *str;
		size_t nsyms;

		if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh->e_shnum)
			continue;
		str = (const char *)img + sh[sh[i].sh_link].sh_offset;
		nsyms = sh[i].sh_size / sizeof(*st);
		for (j = 0; j < (int)nsyms; j++) {
			if (!strcmp(str + st[j].st_name, name)) {
				sym->vaddr = st[j].st_value;
				break;
			}
		}
	}
	if (!sym->vaddr)
		return -ENOENT;
	for (i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type == PT_LOAD && sym->vaddr >= ph[i].p_vaddr &&
		    sym->vaddr < ph[i].p_vaddr + ph[i].p_filesz) {
			sym->foff = sym->vaddr - ph[i].p_vaddr + ph[i].p_offset;
			return 0;
		}
	}
	return -ERANGE;
}

/* Find @name in the symbol table of the ELF image @img (32 or 64-bit). */
static int elf_lookup(const unsigned char *img, size_t size, const char *name,
		      struct uev_sym *sym)
{
	if (size < EI_NIDENT || memcmp(img, ELFMAG, SELFMAG))
		return -ENOEXEC;
	if (img[EI_CLASS] == ELFCLASS64)
		return elf64_lookup(img, size, name, sym);
	if (img[EI_CLASS] == ELFCLASS32)
		return elf32_lookup(img, size, name, sym);
	return -ENOEXEC;
}

/**
 * uev_sym() - find a symbol in the symbol table of an ELF file
 * @path: the ELF file
 * @name: symbol name
 * @sym: filled with the symbol's address and the file offset it maps
 *
 * Return: 0, or -errno.
 */
int uev_sym(const char *path, const char *name, struct uev_sym *sym)
{
	unsigned char *img;
	struct stat st;
	int fd, err;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		err = -errno;
		close(fd);
		return err;
	}
	img = malloc(st.st_size);
	if (!img) {
		close(fd);
		return -ENOMEM;
	}
	if (pread(fd, img, st.st_size, 0) != st.st_size)
		err = -EIO;
	else
		err = elf_lookup(img, st.st_size, name, sym);
	free(img);
	close(fd);
	return err;
}

/**
 * uev_target_sym() - find a symbol of the probe target
 * @name: symbol name
 * @sym: filled with the symbol's address and file offset
 *
 * Return: 0, or -errno.
 */
int uev_target_sym(const char *name, struct uev_sym *sym)
{
	return uev_sym(uev_path("bin", UEV_TARGET), name, sym);
}
