"""The admin's page for staff to import a campaign file (campaigns/portability.py,
R-ADD-207): the same checks as `manage.py import_campaign`, the refusal shown with the
field that failed, nothing written."""

from __future__ import annotations

import json

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.views.decorators import staff_member_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse

from battles.engine.errors import InvalidInput

from .portability import FORMAT, campaign_import

MAX_FILE_BYTES = 50 * 1024 * 1024


class CampaignImportForm(forms.Form):
    file = forms.FileField(help_text=f"a {FORMAT} file, as GET /api/campaigns/{{id}}/export gives")


@staff_member_required
def campaign_import_page(request: HttpRequest) -> HttpResponse:
    form = CampaignImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        if upload.size > MAX_FILE_BYTES:
            form.add_error("file", f"over the limit of {MAX_FILE_BYTES} bytes")
        else:
            try:
                campaign = campaign_import(document=json.loads(upload.read()))
            except (ValueError, UnicodeDecodeError) as exc:
                form.add_error("file", f"not a JSON document ({exc}); nothing was imported")
            except InvalidInput as exc:
                form.add_error("file", f"refused, nothing was imported: {exc.field}: {exc.message}")
            else:
                messages.success(request, f"Imported campaign {campaign.name!r} ({campaign.id}).")
                return HttpResponseRedirect(reverse("admin:campaigns_campaign_changelist"))
    context = {**admin.site.each_context(request), "title": "Import a campaign", "form": form}
    return render(request, "admin/campaigns/campaign_import.html", context)
