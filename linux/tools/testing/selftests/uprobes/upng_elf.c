// SPDX-License-Identifier: GPL-2.0
/*
 * Minimal ELF symbol table reader: finds function symbols of 32-bit and
 * 64-bit x86 ELF files and converts their addresses to file offsets
 * through the PT_LOAD program headers (what uprobe_events wants).
 */
#include <linux/elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "upng.h"

struct elf_view {
	const unsigned char *base;
	size_t size;
	bool is32;
};

/* ELF header fields, for either class. */
static unsigned long ehdr_shoff(const struct elf_view *v)
{
	if (v->is32)
		return ((const struct elf32_hdr *)v->base)->e_shoff;
	return ((const struct elf64_hdr *)v->base)->e_shoff;
}

static unsigned long ehdr_phoff(const struct elf_view *v)
{
	if (v->is32)
		return ((const struct elf32_hdr *)v->base)->e_phoff;
	return ((const struct elf64_hdr *)v->base)->e_phoff;
}

/* Entry size and count of the section (SH) or program (PH) headers. */
static void ehdr_tables(const struct elf_view *v, bool sh,
			unsigned int *entsize, unsigned int *num)
{
	const struct elf32_hdr *h32 = (const void *)v->base;
	const struct elf64_hdr *h64 = (const void *)v->base;

	if (v->is32) {
		*entsize = sh ? h32->e_shentsize : h32->e_phentsize;
		*num = sh ? h32->e_shnum : h32->e_phnum;
	} else {
		*entsize = sh ? h64->e_shentsize : h64->e_phentsize;
		*num = sh ? h64->e_shnum : h64->e_phnum;
	}
}

static int elf_open(const char *path, struct elf_view *v)
{
	struct stat st;
	void *p;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || st.st_size < (off_t)sizeof(struct elf64_hdr)) {
		close(fd);
		return -EINVAL;
	}
	p = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return -errno;
	v->base = p;
	v->size = st.st_size;
	if (memcmp(v->base, ELFMAG, SELFMAG))
		goto bad;
	if (v->base[EI_CLASS] == ELFCLASS32)
		v->is32 = true;
	else if (v->base[EI_CLASS] == ELFCLASS64)
		v->is32 = false;
	else
		goto bad;
	return 0;
bad:
	munmap(p, v->size);
	return -ENOEXEC;
}

static void elf_close(struct elf_view *v)
{
	munmap((void *)v->base, v->size);
}

static bool shdr_get(const struct elf_view *v, unsigned int i,
		     struct elf64_shdr *out)
{
	unsigned int entsize, num;
	size_t off;

	ehdr_tables(v, true, &entsize, &num);
	off = ehdr_shoff(v) + (size_t)i * entsize;

	if (off + (v->is32 ? sizeof(struct elf32_shdr) : sizeof(struct elf64_shdr)) > v->size)
		return false;
	if (v->is32) {
		const struct elf32_shdr *s = (const void *)(v->base + off);

		out->sh_type = s->sh_type;
		out->sh_offset = s->sh_offset;
		out->sh_size = s->sh_size;
		out->sh_link = s->sh_link;
		out->sh_entsize = s->sh_entsize;
	} else {
		*out = *(const struct elf64_shdr *)(v->base + off);
	}
	return out->sh_offset + out->sh_size <= v->size;
}

/* Translate a virtual address to a file offset; false if not in a load. */
static bool vaddr_to_off(const struct elf_view *v, unsigned long addr,
			 unsigned long *off)
{
	unsigned int i, n, entsize;
	unsigned long vaddr, filesz, poff;
	unsigned int type;

	ehdr_tables(v, false, &entsize, &n);
	for (i = 0; i < n; i++) {
		size_t at = ehdr_phoff(v) + (size_t)i * entsize;

		if (v->is32) {
			const struct elf32_phdr *p = (const void *)(v->base + at);

			type = p->p_type;
			vaddr = p->p_vaddr;
			filesz = p->p_filesz;
			poff = p->p_offset;
		} else {
			const struct elf64_phdr *p = (const void *)(v->base + at);

			type = p->p_type;
			vaddr = p->p_vaddr;
			filesz = p->p_filesz;
			poff = p->p_offset;
		}
		if (type == PT_LOAD && addr >= vaddr && addr < vaddr + filesz) {
			*off = addr - vaddr + poff;
			return true;
		}
	}
	return false;
}

/*
 * Walk the symbol table (SHT_SYMTAB, else SHT_DYNSYM); for every symbol
 * whose name matches NAME exactly (EXACT) or as a prefix, store it in OUT.
 */
static int elf_walk(const struct elf_view *v, const char *name, bool exact,
		    struct upng_sym *out, int max)
{
	unsigned int i, j, nsec, entsize;
	struct elf64_shdr sh, strsh;
	int want, found = 0;

	ehdr_tables(v, true, &entsize, &nsec);
	for (want = SHT_SYMTAB; ; want = SHT_DYNSYM) {
		for (i = 0; i < nsec; i++) {
			if (shdr_get(v, i, &sh) && sh.sh_type == (unsigned int)want)
				break;
		}
		if (i < nsec || want == SHT_DYNSYM)
			break;
	}
	if (i == nsec || !sh.sh_entsize || !shdr_get(v, sh.sh_link, &strsh))
		return -ENOENT;

	for (j = 0; j < sh.sh_size / sh.sh_entsize; j++) {
		const void *p = v->base + sh.sh_offset + j * sh.sh_entsize;
		unsigned long value, off;
		unsigned int nameoff;
		unsigned short shndx;
		const char *sname;

		if (v->is32) {
			nameoff = ((const struct elf32_sym *)p)->st_name;
			value = ((const struct elf32_sym *)p)->st_value;
			shndx = ((const struct elf32_sym *)p)->st_shndx;
		} else {
			nameoff = ((const struct elf64_sym *)p)->st_name;
			value = ((const struct elf64_sym *)p)->st_value;
			shndx = ((const struct elf64_sym *)p)->st_shndx;
		}
		if (shndx == SHN_UNDEF || nameoff >= strsh.sh_size)
			continue;
		sname = (const char *)v->base + strsh.sh_offset + nameoff;
		if (exact ? strcmp(sname, name) :
			    strncmp(sname, name, strlen(name)))
			continue;
		if (!vaddr_to_off(v, value, &off))
			continue;
		if (found < max) {
			snprintf(out[found].name, sizeof(out[found].name), "%s",
				 sname);
			out[found].value = value;
			out[found].offset = off;
		}
		found++;
		if (exact)
			break;
	}
	return found;
}

int upng_elf_sym(const char *path, const char *sym, struct upng_sym *out)
{
	struct elf_view v;
	int ret;

	ret = elf_open(path, &v);
	if (ret)
		return ret;
	ret = elf_walk(&v, sym, true, out, 1);
	elf_close(&v);
	if (ret < 0)
		return ret;
	return ret == 1 ? 0 : -ENOENT;
}

int upng_elf_syms(const char *path, const char *prefix,
		  struct upng_sym *out, int max)
{
	struct elf_view v;
	int ret;

	ret = elf_open(path, &v);
	if (ret)
		return ret;
	ret = elf_walk(&v, prefix, false, out, max);
	elf_close(&v);
	return ret;
}

int upng_elf_is32(const char *path)
{
	struct elf_view v;
	int ret;

	ret = elf_open(path, &v);
	if (ret)
		return ret;
	ret = v.is32;
	elf_close(&v);
	return ret;
}
