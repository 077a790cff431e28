"""capture"""
